// The workspace's stylesheet and the pinned htmx, bundled as text by the `Text` module rules in wrangler.toml.
declare module "*.css" {
  const text: string;
  export default text;
}
declare module "htmx.org/dist/htmx.min.js" {
  const text: string;
  export default text;
}
