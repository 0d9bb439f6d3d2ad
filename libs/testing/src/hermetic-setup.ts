import { installHermeticGuard } from './lib/hermetic-guard';

// Jest `setupFiles` of the integration config: no suite may touch the running system's vhost or database.
installHermeticGuard();
