// One benchmark figure, as `npm run bench` prints it: the value with its unit, and where there is
// one, the baseline measured in the same run and the ratio between them.

export interface Figure {
  figure: string;
  value: number;
  unit: string;
  p95?: number;
  baseline?: number;
  baseline_unit?: string;
  ratio?: number;
  target?: string;
  note?: string;
}
