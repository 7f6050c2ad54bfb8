/** Shapes of answers shared by the server and the client, beyond what tRPC infers. */

/** The page's initial parameters (DESIGN.md §7), injected into index.html as JSON. */
export interface InitialParams {
  treeToken: string | null;
  settings: {
    imagePath: string;
    email: string;
    helpEmail: string;
    siteUrl: string;
    phone: string;
  };
}

/** The signed-in user as the client sees it. */
export interface CurrentUser {
  token: string;
  firstname: string;
  lastname: string;
  email: string;
  role: number;
  showEmail: boolean;
  image: string | null;
  createdAt: number;
}

export interface CellSummary {
  token: string;
  row: number;
  column: number;
  type: number;
  status: number;
  treeToken: string;
}
