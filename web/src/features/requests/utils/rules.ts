/** A rule for useField: at most `max` characters. */
export function maxLengthRule(max: number) {
  return (value: string) => (value.length > max ? `Please keep this to ${max} characters or fewer.` : null);
}
