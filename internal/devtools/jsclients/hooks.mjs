// A module resolve hook (registered by register.mjs): a bare import that
// does not resolve from the importing file is resolved again as if this
// folder had imported it, so from the packages in node_modules here.
// Relative and absolute imports are left alone.
const bare = (s) => !/^(\.{0,2}\/|[a-z][a-z0-9+.-]*:)/i.test(s);

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (err) {
    if (err?.code !== "ERR_MODULE_NOT_FOUND" || !bare(specifier)) {
      throw err;
    }
    return nextResolve(specifier, { ...context, parentURL: import.meta.url });
  }
}
