/**
 * The input of a tool that takes a list of targets where one target is the
 * common case (read, edit, write): the target's own fields at the top level,
 * the way models send one (`{"path": "a.ts", "line_range": "1..80"}`), or
 * `targets` for several. Both forms are in the schema a client sees, and
 * neither is required there: a client that checks a call against the schema
 * itself (Gemini CLI) lets either through, and a call with neither, or with
 * both, is refused here with a sentence that says what to send.
 *
 * Each field is described once, at the top level; the items of `targets`
 * repeat the fields bare, so a batch costs the tool list no second set of
 * descriptions. After parsing a tool sees `targets` either way. A target
 * field that is also a shared field (write's `force`) is one field at the
 * top: in a one-target call its value goes to both.
 */
import { z } from "zod";

type Shape = Record<string, z.ZodType>;

/** A target's fields and what the model reads about each. */
export interface TargetFields<T extends Shape> {
  fields: T;
  about: { readonly [K in keyof T]?: string };
}

type Flat<T extends Shape, S extends Shape> = {
  [K in Exclude<keyof T, keyof S>]: z.ZodOptional<T[K]>;
};

/** What the tool gets: the shared fields and `targets`, one or many. */
export type TargetsArgs<T extends Shape, S extends Shape> = z.output<z.ZodObject<S>> & {
  targets: z.output<z.ZodObject<T>>[];
};

const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`).join(", ");

/** The fields of `names` that `args` gives. */
function givenFields(names: readonly string[], args: Record<string, unknown>): string[] {
  return names.filter((n) => args[n] !== undefined);
}

/** The schema: the target's fields (each optional) and `targets` at the top, `shared` beside them. */
export function targetsInput<T extends Shape, S extends Shape>(target: TargetFields<T>, shared: S) {
  const both = Object.keys(target.fields).filter((n) => n in shared);
  const names = Object.keys(target.fields).filter((n) => !both.includes(n));
  const item = z.strictObject(target.fields);
  const flat = Object.fromEntries(
    names.map((name) => {
      const about = target.about[name];
      const field = target.fields[name]!.optional();
      return [name, about === undefined ? field : field.describe(about)];
    }),
  ) as Flat<T, S>;
  const published = z.strictObject({
    ...flat,
    targets: z.array(item).min(1).optional().describe("Several at once, each as above."),
    ...shared,
  });
  const required = names.filter((n) => !target.fields[n]!.safeParse(undefined).success);
  const one = quoted(required.length > 0 ? required : names.slice(0, 1));
  return published.transform((parsed, ctx): TargetsArgs<T, S> => {
    const args = parsed as Record<string, unknown>;
    const given = givenFields(names, args);
    const rest = Object.fromEntries(
      Object.entries(args).filter(([k]) => k !== "targets" && !names.includes(k)),
    );
    if (args.targets !== undefined && given.length > 0) {
      ctx.issues.push({
        code: "custom",
        input: parsed,
        message: `${quoted(given)} and "targets" are two ways to name what to work on; send one target's fields at the top or all of them in "targets", not both`,
      });
      return z.NEVER;
    }
    if (args.targets !== undefined) return { ...rest, targets: args.targets } as TargetsArgs<T, S>;
    if (given.length === 0) {
      ctx.issues.push({
        code: "custom",
        input: parsed,
        message: `no file named; send ${one} and the fields that go with it, or "targets": [...] with one object like that per file`,
      });
      return z.NEVER;
    }
    const fields = [...given, ...givenFields(both, args)];
    const single = item.safeParse(Object.fromEntries(fields.map((n) => [n, args[n]])));
    if (!single.success) {
      for (const issue of single.error.issues) {
        ctx.issues.push({
          code: "custom",
          input: parsed,
          path: issue.path,
          message: issue.message,
        });
      }
      return z.NEVER;
    }
    return { ...rest, targets: [single.data] } as TargetsArgs<T, S>;
  });
}
