import { useId } from 'react';

/** A labelled search box for the settings tables; `onSearch` gets every change (the table goes back to page 1). */
export function SearchField({
  label,
  value,
  onSearch,
}: {
  label: string;
  value: string;
  onSearch: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="search" value={value} onChange={(event) => onSearch(event.target.value)} />
    </div>
  );
}
