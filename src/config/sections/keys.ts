// Number schemas every section uses.
import { z } from 'zod';

export const PositiveInt = z.number().int().positive();
export const NonNegativeInt = z.number().int().nonnegative();
