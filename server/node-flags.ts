/**
 * V8 heap settings on every production command line: `npm start`, the Dockerfile, the systemd unit
 * (docs/operations.md) and the benchmark's server (a test keeps them in step). A smaller young
 * generation (4 MiB semi-spaces instead of up to 16) and a major collection once the old generation
 * has grown by half (instead of by up to four times what was live) keep the process under 200 MB RSS
 * with the 1,000,000-row database under load, at no throughput cost measurable here (bench/README.md).
 */
export const NODE_MEMORY_FLAGS = ['--max-semi-space-size=4', '--heap-growing-percent=50'] as const;
