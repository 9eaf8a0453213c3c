#!/usr/bin/env node
/**
 * `npm run client:gen`: renders /openapi.json from the app factory (the same document the
 * Worker serves) and generates the typed client's types with openapi-typescript into
 * clients/typescript/schema.d.ts. Check the result in: a test fails when it is stale.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createApp } from "../src/app";
import { generateClientTypes } from "../clients/typescript/generate";

const answer = await createApp().request("/openapi.json");
if (!answer.ok) throw new Error(`the app did not render /openapi.json: HTTP ${answer.status}`);
const target = fileURLToPath(new URL("../clients/typescript/schema.d.ts", import.meta.url));
writeFileSync(target, await generateClientTypes(await answer.json()));
console.log(`wrote ${target}`);
