import type { Child } from "hono/jsx";

export function Page(props: { title: string; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title} · Ledger</title>
        <style>{`
          body { font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #1d2330; }
          label { display: block; margin: .75rem 0 .25rem; font-weight: 600; }
          input, select { font: inherit; padding: .4rem .5rem; width: 100%; box-sizing: border-box; }
          button { font: inherit; padding: .45rem 1rem; margin-top: 1rem; cursor: pointer; }
          table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
          th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #dde1e8; font-size: .92rem; }
          .error { color: #a1261b; font-weight: 600; }
          .secret { font-family: ui-monospace, monospace; background: #f3f5f8; padding: .75rem; word-break: break-all; }
          header { display: flex; justify-content: space-between; align-items: baseline; }
        `}</style>
      </head>
      <body>{props.children}</body>
    </html>
  );
}
