import { FormField, type FormFieldProps } from './FormField';

type EmailFieldProps = Omit<FormFieldProps, 'type' | 'label' | 'name'> & {
  readonly label?: string;
  readonly name?: string;
};

/** The email input every auth form uses: email keyboard, no autocapitalise or spellcheck. */
export function EmailField({ label = 'Email', name = 'email', autoComplete = 'email', ...rest }: EmailFieldProps) {
  return (
    <FormField
      name={name}
      type="email"
      label={label}
      autoComplete={autoComplete}
      inputMode="email"
      autoCapitalize="none"
      spellCheck={false}
      {...rest}
    />
  );
}
