// The API reference viewer's files, bundled as text by the `Text` module rule in wrangler.toml.
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const text: string;
  export default text;
}
declare module "swagger-ui-dist/swagger-ui.css" {
  const text: string;
  export default text;
}
// The users' pages under docs/, bundled as text by the same rule.
declare module "*.md" {
  const text: string;
  export default text;
}
