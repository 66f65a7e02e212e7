import { describe, expect, it } from 'vitest';
import { deviceEditSchema, menuEditSchema, userCreateSchema, userEditSchema } from './index.js';

describe('edit schemas: only the fields sent', () => {
  it('an absent field stays absent instead of taking the create default', () => {
    expect(userEditSchema.parse({ id: 3, corporateName: ' ACME ' })).toEqual({ id: 3, corporateName: 'ACME' });
    expect(deviceEditSchema.parse({ id: 9, name: 'Renamed' })).toEqual({ id: 9, name: 'Renamed' });
    expect(menuEditSchema.parse({ id: 2, sort: '5' })).toEqual({ id: 2, sort: 5 });
    // Create keeps its defaults.
    expect(userCreateSchema.parse({ username: 'u', password: 'secret-1', type: 1, roleId: 2 }).contactNumber).toBe('');
  });

  it('a sent field is validated as on create; null clears a nullable one', () => {
    const bad = userEditSchema.safeParse({ id: 3, contactNumber: 'call me' });
    expect(bad.success ? [] : bad.error.issues.map((i) => i.path.join('.'))).toEqual(['contactNumber']);
    expect(deviceEditSchema.safeParse({ id: 9, sn: '' }).success).toBe(false);
    expect(deviceEditSchema.safeParse({ id: 9, name: null }).success).toBe(false);
    expect(deviceEditSchema.parse({ id: 9, lng: null, lat: null, projectId: null })).toEqual({ id: 9, lng: null, lat: null, projectId: null });
    expect(deviceEditSchema.safeParse({ name: 'x' }).success).toBe(false);
  });
});
