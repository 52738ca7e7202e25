#!/usr/bin/env node
import { main } from "./main.js";
import { outputFailure, processIO } from "./io.js";
import { EXIT } from "./exit-codes.js";

const code = await main(process.argv.slice(2), processIO);
// Standard output that could not be written (a full disk) is a runtime failure, whatever the command found.
process.exitCode = outputFailure() === undefined ? code : EXIT.runtime;
