// The page's CSP forbids eval. zod probes `new Function` the first time an object schema needs
// it (the card bridge's message schemas, built as modules load), and the browser then logs a CSP
// violation. Telling zod not to compile schemas avoids the probe. `main.tsx` imports this module
// first, so it runs before any module that builds a schema.
import { config } from "zod";

config({ jitless: true });
