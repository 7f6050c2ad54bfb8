/**
 * The profile form (docs/product.md, Limits), for the form and the server. URLs are empty or http(s) (a "www." address
 * is stored with https:// in front), so no other scheme (javascript:, data:, ...) is ever kept or rendered as a link.
 */
import * as v from 'valibot';
import { PROFILE_LIMITS as L } from '../constants.ts';
import { isCountryCode, US } from '../reference/countries.ts';
import { isUsStateCode } from '../reference/us-states.ts';
import { MESSAGES, optionalText, optionalUrl, requiredText, withWebScheme } from './rules.ts';

/** "www.example.org" becomes "https://www.example.org"; anything else is left as checked. */
const httpUrl = () => v.pipe(optionalUrl(L.url), v.transform(withWebScheme));

export const profileSchema = v.pipe(
  v.object({
    zipcode: requiredText('Zipcode', L.zipcode),
    country: v.pipe(requiredText('Country', L.place), v.check(isCountryCode, MESSAGES.invalid)),
    city: requiredText('City', L.place),
    state: requiredText('State', L.place),
    // Named as the form labels it (BIO), so the message under the field speaks of what the member sees.
    description: requiredText('Bio', L.longText),
    exhibitions: optionalText(L.longText),
    education: optionalText(L.longText),
    personal_url: httpUrl(),
    fb_url: httpUrl(),
    tw_url: httpUrl(),
    tt_url: httpUrl(),
    in_url: httpUrl(),
  }),
  v.forward(
    v.partialCheck([['country'], ['state']], (p) => p.country !== US || isUsStateCode(p.state), MESSAGES.invalid),
    ['state'],
  ),
);
export type ProfileOutput = v.InferOutput<typeof profileSchema>;

/** The avatar field's messages, in a module of their own (avatar-messages.ts says why). */
export { AVATAR_MESSAGES } from './avatar-messages.ts';

/** The ZIP lookup's input: any text up to a zipcode's length (the lookup answers null for what is not a US ZIP). */
export const zipSchema = v.object({
  zip: v.pipe(v.string(), v.trim(), v.maxLength(L.zipcode, MESSAGES.maxLength(L.zipcode))),
});
