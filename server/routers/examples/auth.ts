/**
 * Example answers of the auth procedures' /api paths, one each, named after the procedure whose
 * declaration gives it (decision 036): docs/api.md shows them, tests/server/api-examples.test.ts holds them against
 * the live server.
 */

export const current = {
  r: {
    token: 'WMp5HoJ_E29FK0p8Z-huY-',
    firstname: 'Lea',
    lastname: 'Park',
    email: 'lea.park@example.com',
    role: 1,
    show_email: false,
    image: null,
    created_at: 1780315200000,
  },
};

export const login = {
  r: {
    token: 'v3p_JZWaQLp6eU19Exy1BS',
    firstname: 'Bo',
    lastname: 'Lane',
    email: 'bo.lane@example.com',
    role: 1,
    show_email: false,
    image: null,
    created_at: 1780315200000,
  },
};

export const logout = { r: { ok: true } };

export const register = {
  r: {
    token: 'NuiditunPL8mQp6AnBaKhb',
    firstname: 'Ada',
    lastname: 'Lane',
    email: 'ada.lane@example.com',
    role: 1,
    show_email: false,
    image: null,
    created_at: 1780315200000,
  },
};

export const requestReset = { r: { ok: true } };

export const restore = { r: { ok: true } };
