/** The editor's medium step and the server's rule about "Not Applicable" (decision 011). */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { ArtForEdit } from '#shared/art-api.ts';
import { NOT_APPLICABLE } from '#shared/constants.ts';
import { ART_MESSAGES, mediumStepEntries } from '#shared/validation/art.ts';
import { initialEditorState, setMedium, setValues } from '#client/editor/editor-state.ts';

const newPiece = {
  cell: { token: 'c', treeToken: 't' },
  mayEdit: true,
  isNew: true,
  art: null,
} as unknown as ArtForEdit;

describe('the medium step', () => {
  it('ticking Digital sets the materials to Not Applicable; unticking it takes that away, keeping the rest', () => {
    let state = initialEditorState(newPiece);
    state = setMedium(state, ['Digital']);
    expect(state.values.materials).toEqual([NOT_APPLICABLE]);
    state = setMedium(state, ['Digital', 'Oil']);
    expect(state.values.materials).toEqual([NOT_APPLICABLE]);
    state = setValues(state, { materials: [NOT_APPLICABLE, 'Canvas'] });
    state = setMedium(state, ['Oil']);
    expect(state.values.materials).toEqual(['Canvas']);
  });

  it('the server refuses Not Applicable together with a material, with a clear message, and takes it alone', () => {
    const materials = v.object({ materials: mediumStepEntries.materials });
    const mixed = v.safeParse(materials, { materials: [NOT_APPLICABLE, 'Canvas'] });
    expect(mixed.success).toBe(false);
    expect(mixed.issues![0].message).toBe(ART_MESSAGES.notApplicableAlone);
    expect(v.safeParse(materials, { materials: [NOT_APPLICABLE] }).success).toBe(true);
    expect(v.safeParse(materials, { materials: ['Canvas', 'Glass'] }).success).toBe(true);
  });
});
