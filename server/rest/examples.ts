/**
 * Example answers of the routes written by hand (routes.ts, tree-routes.ts, art-routes.ts, user-routes.ts), one each,
 * given by their declarations (decision 036): docs/api.md shows them, tests/server/api-examples.test.ts holds them
 * against the live server.
 */

export const initialParams = {
  r: {
    params: {
      tree_token: 'YEGUso2k-c2uFN_Qu80jGy',
      settings: {
        image_path: '/media/',
        email: 'hello@gallery-tree.local',
        help_email: 'help@gallery-tree.local',
        site_url: 'http://localhost:3000',
        phone: '',
        time_zone: 'UTC',
        live_transport: 'events',
      },
    },
    csrf_token: 'zrWe15EO-FdNaRkP9L2gRunN5Yy7JxHv',
  },
};

export const snapshot = {
  r: {
    format: 1,
    token: 'YEGUso2k-c2uFN_Qu80jGy',
    version: 2,
    settings: {
      trunk: { columns: 5, seed_rows: 2, root_rows: 10, trunk_rows: 30 },
      crown: { rows: 3 },
      branch: { min_row: 3, max_row: 26, min_column: -15, max_column: 19, start_row: 26 },
    },
    count: 3,
    row: [0, 0, 0],
    col: [0, 1, 2],
    status: '000',
    type: '111',
    color: '000000000',
    detail: {
      token: ['aHR-tCEdEdoFg0DfpkY-bI', 'XR_JiJWRzNxUEyF4deOQuT', 'qpsplZFqRW2iaV4qGQi3e5'],
      thumb: ['', '', ''],
    },
  },
};

export const changes = {
  r: {
    format: 1,
    resync: false,
    since: 2,
    version: 3,
    count: 1,
    row: [33],
    col: [0],
    status: '1',
    type: '1',
    color: '000',
    cell: ['TBIcmghFwg7is8QBf1FhwK'],
    thumb: [''],
  },
};

export const events = {
  since: 3,
  count: 1,
  row: [33],
  col: [1],
  status: '1',
  type: '1',
  color: '000',
  cell: ['bzA87fJ-dyQblIHi_7ANGS'],
  thumb: [''],
};

export const history = {
  r: {
    format: 1,
    token: 'YEGUso2k-c2uFN_Qu80jGy',
    version: 2,
    start: 1767225600000,
    step: 3600000,
    count: 2,
    row: [9, 1],
    col: [0, 0],
    time: [0, 24],
  },
};

export const region = {
  r: {
    version: 4,
    row0: 9,
    row1: 10,
    col0: 0,
    col1: 1,
    at: [0, 1, 2],
    token: ['I62x_snUYPHZvPTmdf3zDk', 'prmcFsI9gzAdaW87WcdtrY', 'nFjlWbQAsGGcDk38xa9pb0'],
    thumb: [
      '/media/8b2e4c6a0f1d3b5e7c9a1f3d5b7e9c2a-thumb.webp',
      '',
      '/media/3f7a9c2e5b1d4f8a6c0e2b4d6f8a0c1e-thumb.webp',
    ],
    title: ['Upstream', '', 'River at Dusk'],
    artist: ['Jonas Berg', '', 'Maya Okafor'],
  },
};

export const cellWithArt = {
  r: {
    token: 'nFjlWbQAsGGcDk38xa9pb0',
    row: 10,
    column: 0,
    type: 1,
    status: 2,
    tree_token: 'YEGUso2k-c2uFN_Qu80jGy',
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
      created_at: 1767225600000,
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
    },
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
  },
};

export const artSave = {
  r: {
    cell: { token: 'DHLBAN1DBI7CgHcArfI9ZV', row: 33, column: 2, status: 1, tree_token: 'YEGUso2k-c2uFN_Qu80jGy' },
    may_edit: true,
    is_new: false,
    art: {
      token: '1EUb2EKic6eh5knea2jqaG',
      title: 'Blue Hour',
      year: 2024,
      category: 'Painting',
      subject: 'Landscape',
      style: 'Impressionism',
      medium: ['Oil'],
      materials: ['Canvas'],
      keywords: ['dusk', 'river'],
      description: 'The river at dusk.',
      width: '24',
      height: '18',
      depth: '.01',
      units: 'in',
      no_size: false,
      ai_use: 'none',
      status: 0,
      review_note: null,
      pictures: [
        {
          token: 'O-FdumrmCr00uglkawRlU9',
          width: 64,
          height: 48,
          thumb: '/media/8533f06ff07a10a904395cd36922309d-thumb.webp',
          image: '/media/8533f06ff07a10a904395cd36922309d-large.webp',
          description: 'A dark blue square, mostly empty, with a pale line near the top.',
          variants: [{ width: 64, type: 'image/webp', url: '/media/8533f06ff07a10a904395cd36922309d-large.webp' }],
          deep_zoom: { state: 'none', descriptor: null },
        },
      ],
      main_image_locked: false,
    },
  },
};

export const profileSave = {
  r: {
    token: 'lce9f_qYL-Og-QZ36vzw0x',
    image: null,
    zipcode: '10001',
    country: 'US',
    city: 'New York',
    state: 'NY',
    description: 'I paint rivers.',
    exhibitions: '',
    education: '',
    personal_url: 'https://www.example.org',
    fb_url: '',
    tw_url: '',
    tt_url: '',
    in_url: '',
  },
};
