#!/usr/bin/env node
/** `npm run docs:errors`: writes docs/errors.md from the error catalog and the endpoint index. */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { endpoints } from "../src/endpoints/index";
import { renderErrorReference } from "./error-reference";

const target = fileURLToPath(new URL("../docs/errors.md", import.meta.url));
writeFileSync(target, renderErrorReference(endpoints));
console.log(`wrote ${target}`);
