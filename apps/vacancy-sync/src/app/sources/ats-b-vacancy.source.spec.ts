import { isLiveAtsBJob } from './ats-b-vacancy.source';

describe(isLiveAtsBJob.name, () => {
  it('takes open, public, not deleted jobs', () => {
    expect(isLiveAtsBJob({ id: 1, isOpen: true, isPublic: true, isDeleted: false })).toBe(true);
    expect(isLiveAtsBJob({ id: 1, isOpen: true, isPublic: false })).toBe(false);
    expect(isLiveAtsBJob({ id: 1, isOpen: false, isPublic: true })).toBe(false);
    expect(isLiveAtsBJob({ id: 1, isOpen: true, isPublic: true, isDeleted: true })).toBe(false);
  });
});
