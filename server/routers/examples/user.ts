/**
 * Example answers of the user procedures' /api paths, one each, named after the procedure whose
 * declaration gives it (decision 036): docs/api.md shows them, tests/server/api-examples.test.ts holds them against
 * the live server.
 */

export const updateAccount = {
  r: {
    token: 'B68lVBWxYM6jZoZoow6fQ4',
    firstname: 'New',
    lastname: 'Name',
    email: 'sam.reed@example.com',
    role: 1,
    show_email: true,
    image: null,
    created_at: 1780315200000,
  },
};

export const reservedCell = {
  r: {
    token: 'b2D1Zi7vR3_9ET__qIZrbM',
    row: 34,
    column: 3,
    type: 1,
    status: 1,
    tree_token: 'YEGUso2k-c2uFN_Qu80jGy',
    expires_at: 1781524800000,
    updated_at: 1780315200000,
    extended: false,
    reminder_token: 'lcqCgxmGAy-RTO48KHSmVg',
    art: { token: '7mP4Dd6-zAgmSAso62d9HD', status: 0 },
    extension_allowed: true,
    extended_until: 1782172799999,
    reminder: 0,
  },
};

export const profile = {
  r: {
    token: '2ws_4DWvhO33RJPvkvuUOw',
    firstname: 'Maya',
    lastname: 'Okafor',
    role: 4,
    image: null,
    city: 'Portland',
    zipcode: '97201',
    state: 'OR',
    country: 'US',
    country_name: 'United States of America',
    email: null,
    personal_url: 'https://maya.example.com',
    fb_url: '',
    tw_url: '',
    tt_url: '',
    in_url: '',
    description: 'I paint rivers.',
    exhibitions: '',
    education: '',
    created_at: 1780315200000,
    activity: { likes: 0, followers: 1 },
  },
};

export const fullProfile = {
  r: {
    token: '2ws_4DWvhO33RJPvkvuUOw',
    image: null,
    zipcode: '97201',
    country: 'US',
    city: 'Portland',
    state: 'OR',
    description: 'I paint rivers.',
    exhibitions: '',
    education: '',
    personal_url: 'https://maya.example.com',
    fb_url: '',
    tw_url: '',
    tt_url: '',
    in_url: '',
  },
};

export const art = {
  r: [
    {
      token: 'b2D1Zi7vR3_9ET__qIZrbM',
      row: 34,
      column: 3,
      type: 1,
      status: 1,
      tree_token: 'YEGUso2k-c2uFN_Qu80jGy',
      reserved_until: 1781524800000,
      art: {
        token: '7mP4Dd6-zAgmSAso62d9HD',
        status: 0,
        title: '',
        category: '',
        width: '',
        height: '',
        depth: '',
        units: 'in',
        no_size: false,
        created_at: 1780315200000,
        updated_at: 1780315200000,
        activity: { likes: 0, reviews: 0 },
        picture: null,
      },
    },
    {
      token: 'nFjlWbQAsGGcDk38xa9pb0',
      row: 10,
      column: 0,
      type: 1,
      status: 2,
      tree_token: 'YEGUso2k-c2uFN_Qu80jGy',
      reserved_until: null,
      art: {
        token: 'Ubn6swViT5gQcg9N9iz_vw',
        status: 2,
        title: 'River at Dusk',
        category: 'Painting',
        width: '24',
        height: '18',
        depth: '1',
        units: 'in',
        no_size: false,
        created_at: 1767225600000,
        updated_at: 1767225600000,
        activity: { likes: 0, reviews: 1 },
        picture: { thumb: '/media/3f7a9c2e5b1d4f8a6c0e2b4d6f8a0c1e-thumb.webp' },
      },
    },
  ],
};

export const publishedArt = {
  r: [
    {
      token: 'nFjlWbQAsGGcDk38xa9pb0',
      row: 10,
      column: 0,
      type: 1,
      status: 2,
      art: {
        token: 'Ubn6swViT5gQcg9N9iz_vw',
        title: 'River at Dusk',
        year: 2020,
        category: 'Painting',
        width: '24',
        height: '18',
        depth: '1',
        units: 'in',
        no_size: false,
        created_at: 1767225600000,
        activity: { likes: 0, reviews: 1 },
        picture: { thumb: '/media/3f7a9c2e5b1d4f8a6c0e2b4d6f8a0c1e-thumb.webp' },
      },
      connections: [
        {
          next_cell: {
            token: 'I62x_snUYPHZvPTmdf3zDk',
            art: { picture: { thumb: '/media/8b2e4c6a0f1d3b5e7c9a1f3d5b7e9c2a-thumb.webp' } },
          },
        },
      ],
    },
  ],
};

export const likeStatus = { r: { liked: 0, likes: 0 } };

export const like = { r: { liked: 1, likes: 1 } };

export const unlike = { r: { liked: 0, likes: 0 } };

export const following = {
  r: [
    {
      token: '2ws_4DWvhO33RJPvkvuUOw',
      firstname: 'Maya',
      lastname: 'Okafor',
      image: null,
      city: 'Portland',
      country: 'US',
      created_at: 1780315200000,
    },
  ],
};

export const followStatus = { r: { following: 1, followers: 1 } };

export const follow = { r: { following: 1, followers: 2 } };

export const unfollow = { r: { following: 0, followers: 2 } };
