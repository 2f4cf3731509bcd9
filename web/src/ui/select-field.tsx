import type { ComponentChildren } from "preact";

/** One option of a select: the value sent, and the label the user reads. */
export interface Choice {
  value: string;
  label: string;
}

/** Choices whose value is also their label, or whose label a function writes. */
export const choicesOf = (values: readonly string[], label: (value: string) => string = (v) => v): Choice[] =>
  values.map((value) => ({ value, label: label(value) }));

interface Props {
  label: ComponentChildren;
  name?: string;
  /** Undefined while they load. */
  choices: readonly Choice[] | undefined;
  /** The label of an empty first option ("All", "Any", "Choose…"); no such option when absent. */
  empty?: string;
  required?: boolean;
  /** A select read with its form: the option chosen at first. */
  initial?: string;
  /** A select the page holds the value of: that value, and what a change does. */
  value?: string;
  onChange?: (value: string) => void;
}

// The option's default (its `selected` attribute), which Preact's types leave out: `selected` is only the current
// choice, so a form's reset() went back to the first option (Invite a user: `owner`, issue #45).
declare module "preact" {
  interface OptionHTMLAttributes<T extends EventTarget = HTMLOptionElement> {
    defaultSelected?: boolean;
  }
}

/**
 * A labelled select, the one way pages offer a choice. Preact has no defaultValue for a select, so a form-read
 * select marks its `initial` choice as the default (`defaultSelected`: chosen at first, and again on the form's reset);
 * a held one sets `value`.
 */
export function SelectField({ label, name, choices, empty, required, initial, value, onChange }: Props) {
  const held = value !== undefined;
  return (
    <label class="field">
      <span>{label}</span>
      <select
        name={name}
        required={required}
        {...(held && { value })}
        {...(onChange && { onChange: (event) => onChange(event.currentTarget.value) })}
      >
        {empty !== undefined && <option value="">{empty}</option>}
        {choices?.map((choice) => (
          <option
            key={choice.value}
            value={choice.value}
            {...(!held && { defaultSelected: choice.value === initial })}
          >
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}
