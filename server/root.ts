/** The app's tRPC router: one sub-router per area (docs/architecture.md, Layers). */
import { artRouter } from './routers/art.ts';
import { adminRouter } from './routers/admin.ts';
import { authRouter } from './routers/auth.ts';
import { cellRouter } from './routers/cell.ts';
import { miscRouter } from './routers/misc.ts';
import { treeRouter } from './routers/tree.ts';
import { userRouter } from './routers/user.ts';
import { createCallerFactory, router } from './trpc.ts';

export const appRouter = router({
  tree: treeRouter,
  cell: cellRouter,
  art: artRouter,
  user: userRouter,
  auth: authRouter,
  misc: miscRouter,
  admin: adminRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
