// GS1's mod-10 check digit (GS1 General Specifications 7.9.1), shared by GTINs and SSCCs: from the right,
// the digits before the check digit are weighted 3, 1, 3, 1, ...

/** The check digit of `digits` (the code without its check digit). */
export function gs1CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const fromRight = digits.length - 1 - i;
    sum += Number(digits[i]) * (fromRight % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}
