/**
 * Where the member lives, on the profile form (decisions 014 and 015): the country, the ZIP code, the city, and the
 * state (a dropdown of the states and DC for the US, reset to AL when the US is chosen; else free text). A US ZIP
 * fills the city and the state through our own server (misc.zip); an unknown one, or a failed lookup, says nothing.
 */
import { useEffect, useRef } from 'react';
import { PROFILE_LIMITS as L } from '#shared/constants.ts';
import { COUNTRIES, US } from '#shared/reference/countries.ts';
import { DEFAULT_US_STATE, US_STATES } from '#shared/reference/us-states.ts';
import { trpc } from '#client/api/trpc.ts';
import { SelectField, TextField } from '#client/forms/fields.tsx';
import type { Form } from '#client/forms/use-form.ts';
import type { ProfileValues } from './profile-values.ts';

const COUNTRY_OPTIONS = COUNTRIES.map((country) => ({ value: country.code, label: country.name }));
const STATE_OPTIONS = US_STATES.map((state) => ({ value: state.code, label: state.name }));
/** A pause after the last keystroke, so "10001-1234" typed quickly asks once or twice, not six times. */
const LOOKUP_PAUSE_MS = 250;

export function PlaceFields({ form }: { form: Form<ProfileValues> }) {
  useZipLookup(form);
  const isUs = form.values.country === US;
  const chooseCountry = (country: string) => {
    form.setValue('country', country);
    form.setValue('state', country === US ? DEFAULT_US_STATE : '');
  };
  return (
    <>
      <div className="form-grid form-grid--two">
        <SelectField
          form={form}
          name="country"
          label="Country"
          options={COUNTRY_OPTIONS}
          placeholder="Choose a country"
          onChoose={chooseCountry}
          autoComplete="country"
        />
        <TextField
          form={form}
          name="zipcode"
          label="Zipcode"
          autoComplete="postal-code"
          maxLength={L.zipcode}
          hint={isUs ? 'A US ZIP code fills in the city and the state.' : undefined}
        />
      </div>
      <div className="form-grid form-grid--two">
        <TextField form={form} name="city" label="City" autoComplete="address-level2" maxLength={L.place} />
        {isUs ? (
          <SelectField
            form={form}
            name="state"
            label="State"
            options={STATE_OPTIONS}
            placeholder="Choose a state"
            autoComplete="address-level1"
          />
        ) : (
          <TextField form={form} name="state" label="State" autoComplete="address-level1" maxLength={L.place} />
        )}
      </div>
    </>
  );
}

/** Looks a US ZIP up once the member has typed enough, never for the values the form opened with. */
function useZipLookup(form: Form<ProfileValues>): void {
  const utils = trpc.useUtils();
  const { setValue } = form;
  const zip = form.values.zipcode.trim();
  const key = `${form.values.country}:${zip}`;
  const lookedUp = useRef(key);
  const latestKey = useRef(key);
  latestKey.current = key;

  useEffect(() => {
    if (!key.startsWith(`${US}:`) || zip.length < L.zipLookupMin || key === lookedUp.current) return;
    const timer = setTimeout(() => {
      lookedUp.current = key;
      utils.misc.zip.fetch({ zip }).then(
        (place) => {
          // Unknown, or the member has typed on since: leave the form as it is.
          if (!place || latestKey.current !== key) return;
          setValue('city', place.city);
          setValue('state', place.state);
        },
        () => {},
      );
    }, LOOKUP_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [key, zip, setValue, utils]);
}
