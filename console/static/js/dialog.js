// Modal dialogs on <dialog>: forms, confirmations and the once-only key.
import { h, alertBox } from './dom.js';

function open(title, body, { wide } = {}) {
  const dlg = h('dialog', { class: wide ? 'wide' : undefined, 'aria-label': title },
    h('h2', {}, title), body);
  dlg.addEventListener('close', () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
  return dlg;
}

// field is a labelled input; extra attrs go to the input.
export function field(label, name, attrs = {}, hint) {
  const id = 'f-' + name;
  let input;
  if (attrs.options) {
    input = h('select', { id, name }, attrs.options.map(([v, t]) => h('option', { value: v, selected: String(attrs.value) === String(v) }, t)));
  } else if (attrs.multiline) {
    input = h('textarea', { id, name, rows: 3, text: attrs.value ?? '' });
  } else {
    input = h('input', { id, name, type: 'text', ...attrs });
  }
  return h('div', { class: 'field' }, h('label', { for: id }, label), input, hint ? h('small', { class: 'muted' }, hint) : null);
}

// formDialog shows fields; submit(values) may throw ApiError, whose words
// show in the dialog. It resolves to submit's result, or null if cancelled.
// opts.wide: a wider dialog for long forms.
export function formDialog(title, fields, submitLabel, submit, opts = {}) {
  return new Promise((resolve) => {
    const err = alertBox();
    const ok = h('button', { type: 'submit', class: 'btn primary' }, submitLabel);
    const form = h('form', { method: 'dialog', novalidate: true }, fields, err,
      h('div', { class: 'actions' },
        h('button', { type: 'button', class: 'btn', onclick: () => { dlg.close(); } }, 'Cancel'), ok));
    let result = null;
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      err.show('');
      const values = Object.fromEntries(new FormData(form).entries());
      ok.disabled = true;
      try {
        result = await submit(values);
        dlg.close();
      } catch (e) {
        err.show(e.message);
      } finally {
        ok.disabled = false;
      }
    });
    const dlg = open(title, form, opts);
    dlg.addEventListener('close', () => resolve(result));
  });
}

// confirmDialog asks before something that cannot be undone.
export function confirmDialog(title, text, confirmLabel, action) {
  return formDialog(title, [h('p', {}, text)], confirmLabel, action);
}

// keyOnce shows a new key (or, with what: 'secret', a signing secret)
// exactly once, with a copy button and a warning. Closing the dialog drops
// it from the page.
export function keyOnce(title, key, note, { what = 'key', usage = null } = {}) {
  return new Promise((resolve) => {
    const input = h('input', { type: 'text', readOnly: true, value: key, class: 'key', id: 'new-' + what, 'aria-label': 'New ' + what, spellcheck: 'false' });
    const copied = h('span', { class: 'muted', role: 'status' });
    const copy = h('button', {
      type: 'button', class: 'btn', onclick: async () => {
        input.select();
        try {
          await navigator.clipboard.writeText(key);
          copied.textContent = 'Copied.';
        } catch {
          copied.textContent = `Copying is not allowed here: the ${what} is selected, copy it with the keyboard.`;
        }
      },
    }, 'Copy');
    const dlg = open(title, h('div', {},
      h('p', { class: 'warn' }, `This is the only time the full ${what} is shown. Store it now: it cannot be retrieved again.`),
      note ? h('p', { class: 'muted' }, note) : null,
      h('div', { class: 'keyrow' }, input, copy), copied,
      usage,
      h('div', { class: 'actions' }, h('button', { type: 'button', class: 'btn primary', onclick: () => dlg.close() }, `I have stored the ${what}`))), { wide: true });
    dlg.addEventListener('close', () => { input.value = ''; usage?.remove(); resolve(); });
  });
}
