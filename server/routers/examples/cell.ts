/**
 * Example answers of the cell procedures' /api paths, one each, named after the procedure whose
 * declaration gives it (decision 036): docs/api.md shows them, tests/server/api-examples.test.ts holds them against
 * the live server.
 */

export const search = {
  r: [
    {
      token: 'I62x_snUYPHZvPTmdf3zDk',
      row: 9,
      column: 0,
      type: 1,
      status: 2,
      art: {
        token: 'MBlkCC1OlVzmdRZSRtr6qC',
        title: 'Upstream',
        category: '',
        status: 2,
        published_at: 1767225600000,
        ai_use: 'none',
        picture: { thumb: '/media/8b2e4c6a0f1d3b5e7c9a1f3d5b7e9c2a-thumb.webp' },
        author: { token: 'oBVs2u9mO-zM7uQ-nO53JI', firstname: 'Jonas', lastname: 'Berg' },
      },
    },
    {
      token: 'nFjlWbQAsGGcDk38xa9pb0',
      row: 10,
      column: 0,
      type: 1,
      status: 2,
      art: {
        token: 'Ubn6swViT5gQcg9N9iz_vw',
        title: 'River at Dusk',
        category: 'Painting',
        status: 2,
        published_at: 1767312000000,
        ai_use: 'none',
        picture: { thumb: '/media/3f7a9c2e5b1d4f8a6c0e2b4d6f8a0c1e-thumb.webp' },
        author: { token: '2ws_4DWvhO33RJPvkvuUOw', firstname: 'Maya', lastname: 'Okafor' },
      },
    },
  ],
};

export const reserve = {
  r: {
    token: 'sETqig4qH78WovC3srHXz5',
    row: 33,
    column: 3,
    type: 1,
    status: 1,
    tree_token: 'YEGUso2k-c2uFN_Qu80jGy',
    expires_at: 1781524800000,
    updated_at: 1780315200000,
    extended: false,
    reminder_token: 'lN4-dhNAaNab6Uon5LshsN',
    art: { token: 'QZwztJ1yWx_JiUlecJzUMi', status: 0 },
    extension_allowed: true,
    extended_until: 1782172799999,
    reminder: 0,
  },
};

export const reservation = {
  r: {
    cell_token: 'b2D1Zi7vR3_9ET__qIZrbM',
    state: 'active',
    expires_at: 1781524800000,
    updated_at: 1780315200000,
    extended: false,
    extension_allowed: true,
    refusal: null,
    extended_until: 1782172799999,
    reminder: 0,
  },
};

export const extendReservation = {
  r: {
    cell_token: 'ixe1t1ofWFxJwvkqUIdxqY',
    state: 'active',
    expires_at: 1781222399999,
    updated_at: 1780315200000,
    extended: true,
    extension_allowed: false,
    refusal: 'extension_not_allowed',
    extended_until: 1781827199999,
    reminder: 1,
  },
};

export const subscribe = { r: { cell_token: 'tukkQ9qcGAlGrrMcR0pIbE', created_at: 1780315200000 } };

export const subscribeAny = { r: { cell_token: null, created_at: 1780315200000 } };

export const reserveBranch = {
  r: {
    token: '3nSWCebL-G3qwi6ajyESct',
    row: 11,
    column: -1,
    type: 3,
    status: 1,
    tree_token: 'YEGUso2k-c2uFN_Qu80jGy',
    expires_at: 1781524800000,
    updated_at: 1780315200000,
    extended: false,
    reminder_token: 'W21WJC5J4wZH-bYkCFpeCt',
    art: { token: '_qZaF_e43YtYlRQ5PjpVj4', status: 0 },
    extension_allowed: true,
    extended_until: 1782172799999,
    reminder: 0,
  },
};
