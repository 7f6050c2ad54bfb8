/** The profile form's values (docs/product.md, Limits) as the form edits them, from and back to the saved profile. */
import type { FullProfile, ProfileFields } from '#shared/profile-api.ts';
import { US } from '#shared/reference/countries.ts';

export type ProfileValues = { [K in keyof ProfileFields]: string };

/** The form's start: the saved profile; a profile that never had a country starts in the US (decision 015). */
export function profileValues(profile: FullProfile): ProfileValues {
  return {
    country: profile.country || US,
    zipcode: profile.zipcode,
    city: profile.city,
    state: profile.state,
    description: profile.description,
    exhibitions: profile.exhibitions,
    education: profile.education,
    personal_url: profile.personal_url,
    fb_url: profile.fb_url,
    tw_url: profile.tw_url,
    tt_url: profile.tt_url,
    in_url: profile.in_url,
  };
}
