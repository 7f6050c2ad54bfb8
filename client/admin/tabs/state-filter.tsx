/** A row of toggle buttons that filters a list by state ("open", "handled", …): one pressed at a time. */
interface StateFilterProps<T extends string> {
  label: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}

export function StateFilter<T extends string>({ label, options, value, onChange }: StateFilterProps<T>) {
  return (
    <div className="admin-filter" role="group" aria-label={label}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          className="admin-filter__option"
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
