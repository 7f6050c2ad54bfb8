/**
 * Example answers of the art procedures' /api paths, one each, named after the procedure whose
 * declaration gives it (decision 036): docs/api.md shows them, tests/server/api-examples.test.ts holds them against
 * the live server.
 */

export const details = {
  r: {
    token: 'Ubn6swViT5gQcg9N9iz_vw',
    title: 'River at Dusk',
    year: 2020,
    category: 'Painting',
    subject: 'Landscape',
    style: 'Impressionism',
    medium: ['Oil'],
    materials: ['Canvas'],
    keywords: ['dusk'],
    description: 'The river at dusk, from the old bridge.',
    width: '24',
    height: '18',
    depth: '1',
    units: 'in',
    no_size: false,
    ai_use: 'none',
    status: 2,
    created_at: 1767225600000,
    cell: { token: 'nFjlWbQAsGGcDk38xa9pb0', row: 10, column: 0, status: 2, tree_token: 'YEGUso2k-c2uFN_Qu80jGy' },
    pictures: [
      {
        token: 'c4HH7jqyRYcQ_E3oH-oO5k',
        width: 10,
        height: 10,
        thumb: '/media/3f7a9c2e5b1d4f8a6c0e2b4d6f8a0c1e-thumb.webp',
        image: '/media/3f7a9c2e5b1d4f8a6c0e2b4d6f8a0c1e-large.webp',
        description: 'A dark blue square, mostly empty, with a pale line near the top.',
        variants: [{ width: 10, type: 'image/webp', url: '/media/3f7a9c2e5b1d4f8a6c0e2b4d6f8a0c1e-large.webp' }],
        deep_zoom: { state: 'none', descriptor: null },
      },
    ],
    picture: { thumb: '/media/3f7a9c2e5b1d4f8a6c0e2b4d6f8a0c1e-thumb.webp' },
    author: {
      token: '2ws_4DWvhO33RJPvkvuUOw',
      firstname: 'Maya',
      lastname: 'Okafor',
      image: null,
      description: 'I paint rivers.',
    },
    activity: { likes: 0, reviews: 0 },
    connections: [
      {
        token: 'I62x_snUYPHZvPTmdf3zDk',
        status: 1,
        description: 'The same river, upstream.',
        next_cell: {
          token: 'I62x_snUYPHZvPTmdf3zDk',
          row: 9,
          column: 0,
          art: {
            token: 'MBlkCC1OlVzmdRZSRtr6qC',
            title: 'Upstream',
            year: 2020,
            picture: { thumb: '/media/8b2e4c6a0f1d3b5e7c9a1f3d5b7e9c2a-thumb.webp' },
            author: { token: 'oBVs2u9mO-zM7uQ-nO53JI', firstname: 'Jonas', lastname: 'Berg' },
          },
        },
      },
    ],
    may_edit: false,
    removal_request: null,
  },
};

export const forEdit = {
  r: {
    cell: { token: 'nFjlWbQAsGGcDk38xa9pb0', row: 10, column: 0, status: 2, tree_token: 'YEGUso2k-c2uFN_Qu80jGy' },
    may_edit: true,
    is_new: false,
    art: {
      token: 'Ubn6swViT5gQcg9N9iz_vw',
      title: 'River at Dusk',
      year: 2020,
      category: 'Painting',
      subject: 'Landscape',
      style: 'Impressionism',
      medium: ['Oil'],
      materials: ['Canvas'],
      keywords: ['dusk'],
      description: 'The river at dusk, from the old bridge.',
      width: '24',
      height: '18',
      depth: '1',
      units: 'in',
      no_size: false,
      ai_use: 'none',
      status: 2,
      review_note: null,
      pictures: [
        {
          token: 'c4HH7jqyRYcQ_E3oH-oO5k',
          width: 10,
          height: 10,
          thumb: '/media/3f7a9c2e5b1d4f8a6c0e2b4d6f8a0c1e-thumb.webp',
          image: '/media/3f7a9c2e5b1d4f8a6c0e2b4d6f8a0c1e-large.webp',
          description: 'A dark blue square, mostly empty, with a pale line near the top.',
          variants: [{ width: 10, type: 'image/webp', url: '/media/3f7a9c2e5b1d4f8a6c0e2b4d6f8a0c1e-large.webp' }],
          deep_zoom: { state: 'none', descriptor: null },
        },
      ],
      main_image_locked: true,
    },
  },
};

export const connections = {
  r: [
    {
      token: 'I62x_snUYPHZvPTmdf3zDk',
      status: 1,
      description: 'The same river, upstream.',
      next_cell: {
        token: 'I62x_snUYPHZvPTmdf3zDk',
        row: 9,
        column: 0,
        art: {
          token: 'MBlkCC1OlVzmdRZSRtr6qC',
          title: 'Upstream',
          year: 2020,
          picture: { thumb: '/media/8b2e4c6a0f1d3b5e7c9a1f3d5b7e9c2a-thumb.webp' },
          author: { token: 'oBVs2u9mO-zM7uQ-nO53JI', firstname: 'Jonas', lastname: 'Berg' },
        },
      },
    },
  ],
};

export const saveConnections = {
  r: [
    {
      token: 'I62x_snUYPHZvPTmdf3zDk',
      status: 1,
      description: 'The same river, upstream.',
      next_cell: {
        token: 'I62x_snUYPHZvPTmdf3zDk',
        row: 9,
        column: 0,
        art: {
          token: 'MBlkCC1OlVzmdRZSRtr6qC',
          title: 'Upstream',
          year: 2020,
          picture: { thumb: '/media/8b2e4c6a0f1d3b5e7c9a1f3d5b7e9c2a-thumb.webp' },
          author: { token: 'oBVs2u9mO-zM7uQ-nO53JI', firstname: 'Jonas', lastname: 'Berg' },
        },
      },
    },
  ],
};

export const activeConnections = {
  r: [
    {
      token: 'I62x_snUYPHZvPTmdf3zDk',
      status: 1,
      description: 'The same river, upstream.',
      next_cell: {
        token: 'I62x_snUYPHZvPTmdf3zDk',
        row: 9,
        column: 0,
        art: {
          token: 'MBlkCC1OlVzmdRZSRtr6qC',
          title: 'Upstream',
          year: 2020,
          picture: { thumb: '/media/8b2e4c6a0f1d3b5e7c9a1f3d5b7e9c2a-thumb.webp' },
          author: { token: 'oBVs2u9mO-zM7uQ-nO53JI', firstname: 'Jonas', lastname: 'Berg' },
        },
      },
    },
  ],
};

export const requestRemoval = { r: { token: 'IbEfm7IniC7ueM52kiCupr', state: 'open', created_at: 1780315200000 } };

export const likeStatus = { r: { liked: 0, likes: 0 } };

export const like = { r: { liked: 1, likes: 1 } };

export const unlike = { r: { liked: 0, likes: 0 } };

export const view = { r: { reviews: 1 } };
