// The keyboard script beside this file, bundled as text by the `Text` module rule in wrangler.toml
// and served as it is written (TypeScript reads this declaration in place of the script).
declare const text: string;
export default text;
