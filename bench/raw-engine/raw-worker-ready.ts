/** The line the raw worker prints on stdout once it polls its task queue. */
export const RAW_WORKER_READY = 'raw worker ready';
