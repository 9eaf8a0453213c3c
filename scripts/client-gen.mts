#!/usr/bin/env node
/**
 * `npm run client:gen`: renders the OpenAPI document of the endpoint index (the one the
 * Worker serves at /openapi.json) and generates the typed client's types with
 * openapi-typescript into clients/typescript/schema.d.ts. Check the result in: a test
 * fails when it is stale.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generateClientTypes } from "../clients/typescript/generate";
import { openApiDocument } from "../src/endpoints/document";
import { endpoints } from "../src/endpoints/index";

const target = fileURLToPath(new URL("../clients/typescript/schema.d.ts", import.meta.url));
writeFileSync(target, await generateClientTypes(openApiDocument(endpoints)));
console.log(`wrote ${target}`);
