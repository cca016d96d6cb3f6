#!/usr/bin/env node
// Finds PostgreSQL and Redis for the tests that run real ones (the store's Postgres tests, the
// cluster spec, the cluster benchmark). The tests start their own servers on 127.0.0.1 in a
// temporary folder; only the programs are needed. When one is missing and we run as root on
// Debian, install Debian's `postgresql` and `redis-server` packages and stop the system services
// the packages start (the tests never use them); otherwise stop and say how to get them.
import { accessSync, constants, existsSync, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { spawnSync } from "node:child_process";

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name) {
  for (const folder of (process.env.PATH ?? "").split(delimiter)) {
    if (folder && executable(join(folder, name))) return join(folder, name);
  }
  return null;
}

function findRedis() {
  if (process.env.REDIS_SERVER && executable(process.env.REDIS_SERVER)) {
    return process.env.REDIS_SERVER;
  }
  return onPath("redis-server");
}

// Debian keeps the server programs under /usr/lib/postgresql/<version>/bin, off the PATH.
function findPostgres() {
  if (process.env.POSTGRES_BIN && executable(join(process.env.POSTGRES_BIN, "initdb"))) {
    return process.env.POSTGRES_BIN;
  }
  const base = "/usr/lib/postgresql";
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((version) => executable(join(base, version, "bin", "initdb")))
      .sort((left, right) => Number(right) - Number(left));
    if (versions[0] !== undefined) return join(base, versions[0], "bin");
  }
  const initdb = onPath("initdb");
  return initdb === null ? null : join(initdb, "..");
}

let redis = findRedis();
let postgres = findPostgres();
if (redis === null || postgres === null) {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const isDebian = existsSync("/etc/debian_version");
  if (isRoot && isDebian) {
    const wanted = [
      postgres === null ? "postgresql" : null,
      redis === null ? "redis-server" : null,
    ];
    const packages = wanted.filter((name) => name !== null);
    console.log(`Installing Debian's ${packages.join(" and ")} for the tests (about a minute)...`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    const update = spawnSync("apt-get", ["update"], { stdio: "inherit", env });
    const install =
      update.status === 0
        ? spawnSync("apt-get", ["install", "-y", ...packages], { stdio: "inherit", env })
        : update;
    if (install.status !== 0) {
      console.error(`Installing ${packages.join(" ")} with apt-get failed; see the output above.`);
      process.exit(1);
    }
    // The packages may start system-wide servers; the tests start their own, so stop those.
    for (const service of ["postgresql", "redis-server"]) {
      spawnSync("service", [service, "stop"], { stdio: "ignore", env });
    }
    redis = findRedis();
    postgres = findPostgres();
  }
}

if (redis === null || postgres === null) {
  console.error(
    [
      `The tests need ${[postgres === null ? "PostgreSQL" : null, redis === null ? "Redis" : null]
        .filter(Boolean)
        .join(" and ")}, and it was not found.`,
      "Looked for: $POSTGRES_BIN, /usr/lib/postgresql/<version>/bin and initdb on the PATH;",
      "            $REDIS_SERVER and redis-server on the PATH.",
      "Install them, then run `npm test` again:",
      "  Debian/Ubuntu:  sudo apt-get install postgresql redis-server",
      "  elsewhere:      install both and set POSTGRES_BIN=/folder/with/initdb, REDIS_SERVER=/path/to/redis-server",
    ].join("\n"),
  );
  process.exit(1);
}
console.log(`PostgreSQL programs for the tests: ${postgres}`);
console.log(`Redis for the tests: ${redis}`);
