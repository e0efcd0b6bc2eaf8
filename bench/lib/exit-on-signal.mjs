// Preloaded (--import) into a server run under --cpu-prof: a signal then ends the process with a
// normal exit, which is when Node writes the CPU profile (a re-raised fatal signal would not).
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
