// The course's player: steps the frames of recorded searches (gamelib/view/frames.py) in the page,
// with no round trip to Python. One ES module for every front end: anywidget loads it in a notebook
// (JupyterLab, Notebook 7, JupyterLite, Voila); a lesson's page and a slide page run the same code as
// a classic script (gamelib/view/player.py writes it so) and mount every [data-gamelib-frames] element.
// The model is anywidget's: get, set, save_changes, on, send. Frames arrive gzipped JSON.

const SVGNS = "http://www.w3.org/2000/svg";
const SPEEDS = [1, 2, 4, 8];
const KEYS = { ArrowRight: "next", ArrowLeft: "back", PageDown: "next", PageUp: "back", Home: "first", End: "last", " ": "play" };
const MIN_FONT = 12;  // no text of a picture is drawn smaller (pixels): a narrower room scrolls instead

function uniqueId() {  // ids unique in the page, however many players and however their module is loaded
  return `gp-${Math.random().toString(36).slice(2, 10)}${Date.now().toString(36)}`;
}

function bytesOf(value) {
  if (value instanceof Uint8Array) return value;
  if (value instanceof DataView) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (typeof value === "string") return Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
  throw new Error("no frames");
}

async function inflate(value) {
  const stream = new Blob([bytesOf(value)]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

function at(changes, step) {  // the value of a [[step, value], ...] list at step
  let low = 0, high = changes.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (changes[middle][0] <= step) low = middle; else high = middle - 1;
  }
  return low;
}

function make(tag, attributes = {}, text = "") {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  if (text) element.textContent = text;
  return element;
}

function sentences(element) {  // the words' lines, each ended, for a screen reader (not run together)
  const lines = [...element.querySelectorAll("div")].filter((line) => !line.querySelector("div"));
  return (lines.length ? lines : [element]).map((line) => line.textContent.replace(/\s+/g, " ").trim())
    .filter(Boolean).map((line) => (/[.:!?]$/.test(line) ? line : `${line}.`)).join(" ");
}

function button(label, name, action) {  // its name is its label (WCAG 2.5.3); the title says more
  const element = make("button", { type: "button", class: "gp-button", title: name }, label);
  element.addEventListener("click", action);
  return element;
}

class PanelView {  // one search: its picture (in the row of pictures) and its words (in the row under the bar)
  constructor(data, panel, index, owner) {
    this.data = data; this.panel = panel; this.owner = owner;
    const id = uniqueId();
    this.element = make("section", { class: "gp-panel" });
    if (data.projector) this.element.setAttribute("aria-label", panel.title);  // a projector's picture heads with it
    else {
      this.element.setAttribute("aria-labelledby", `${id}-title`);
      this.element.append(make("h4", { class: "gp-title", id: `${id}-title` }, panel.title));
    }
    this.picture = make("div", { class: "gp-picture", tabindex: "0", role: "group", "aria-roledescription": "search picture",
      "aria-label": `${panel.title}: the picture; arrow keys step, Home and End jump, space plays`,
      "aria-describedby": `${id}-description` });
    this.svg = document.createElementNS(SVGNS, "svg");
    this.picture.append(this.svg);
    this.description = make("div", { class: "gp-hidden", id: `${id}-description` });  // read out, whatever is folded
    this.state = make("div", { class: "gp-state", "aria-hidden": "true" });  // the same words, to read on the screen
    const details = make("details", { class: "gp-in-words" });
    details.append(make("summary", {}, "The picture in words"), this.state);
    this.words = make("div", { class: "gp-words" });
    this.element.append(this.picture, this.description);
    this.below = make("div", { class: "gp-below" });
    this.below.append(this.words, details);
    this.parts = new Map();
    for (const key of panel.order) {
      const holder = document.createElementNS(SVGNS, "g");
      holder.setAttribute("data-k", key);
      this.svg.append(holder);
      this.parts.set(key, { element: holder, shown: -1 });
    }
    this.shown = { root: -1, words: -1, state: -1 };
    this.boxes = null;
  }

  text(index) { return this.data.strings[index]; }

  show(step) {
    const panel = this.panel, strings = this.data.strings;
    step = Math.min(step, panel.last);
    this.svg.setAttribute("data-step", String(step));
    const root = at(panel.root, step);
    if (root !== this.shown.root) {
      this.shown.root = root;
      for (const [name, value] of Object.entries(JSON.parse(strings[panel.root[root][1]]))) {
        if (name !== "xmlns") this.svg.setAttribute(name, value);
      }
      this.svg.removeAttribute("height"); this.svg.removeAttribute("width");
      const [, , width, height] = (this.svg.getAttribute("viewBox") || "0 0 600 400").split(/\s+/).map(Number);
      this.picture.style.setProperty("--gp-width", `${width}px`);
      this.picture.style.setProperty("--gp-ratio", `${width / height}`);
      const least = Math.ceil(Math.min(width, (width * MIN_FONT) / (panel.font || MIN_FONT)));  // up: 12 px, not 11.9995
      this.picture.style.setProperty("--gp-least", `${least}px`);
    }
    for (const [key, part] of this.parts) {
      const changes = panel.parts[key], index = at(changes, step);
      if (index === part.shown) continue;
      part.shown = index;
      const markup = changes[index][1].map((piece) => strings[piece]).join("");
      let fresh;
      if (markup) {
        const holder = document.createElementNS(SVGNS, "svg");
        holder.innerHTML = markup;
        fresh = holder.firstElementChild;
      } else {
        fresh = document.createElementNS(SVGNS, "g");
        fresh.setAttribute("data-k", key);
      }
      part.element.replaceWith(fresh);
      part.element = fresh;
    }
    const words = at(panel.words, step);
    if (words !== this.shown.words) { this.shown.words = words; this.words.innerHTML = this.text(panel.words[words][1]); }
    const state = at(panel.state, step);
    if (state !== this.shown.state) {
      this.shown.state = state;
      this.state.textContent = this.description.textContent = this.text(panel.state[state][1]);
    }
  }

  edit(on) {  // number boxes under the leaves, placed in percent of the picture
    if (this.boxes) { this.boxes.remove(); this.boxes = null; }
    const edit = this.panel.edit;
    if (!on || !edit) return;
    this.boxes = make("div", { class: "gp-boxes" });
    for (const [leaf, x, y, w, h, value] of edit.leaves) {
      const input = make("input", { type: "number", class: "gp-leaf", value: String(value), "aria-label": `value of leaf ${leaf}`,
        step: edit.integer ? "1" : "any", min: String(edit.min), max: String(edit.max) });
      Object.assign(input.style, { left: `${(100 * x) / edit.width}%`, top: `${(100 * y) / edit.height}%`,
        width: `${(100 * w) / edit.width}%`, height: `${(100 * h) / edit.height}%` });
      input.addEventListener("change", () => this.owner.setLeaf(leaf, input.value, input));
      this.boxes.append(input);
    }
    this.picture.append(this.boxes);
  }
}

class Player {
  constructor(model, el) {
    this.model = model; this.el = el; this.step = 0; this.timer = null; this.views = []; this.editing = false;
    // JupyterLab's own shortcuts leave the player's keys alone (Lumino reads data-lm-suppress-shortcuts)
    this.root = make("div", { class: "gamelib-player", "data-gamelib-player": "", "data-lm-suppress-shortcuts": "true" });
    this.panels = make("div", { class: "gp-panels" });
    this.belows = make("div", { class: "gp-panels gp-belows" });
    this.bar = make("div", { class: "gp-bar", role: "toolbar", "aria-label": "step through the search" });
    this.note = make("p", { class: "gp-note", role: "status" });
    this.live = make("div", { class: "gp-live", "aria-live": "polite" });
    this.legend = make("p", { class: "gp-legend" });
    this.hint = make("p", { class: "gp-hint" }, "Keys, with the focus in the player (click a picture or a button, or Tab): " +
      "→ and ← step · Home, End: first and last · space on a picture: play, pause");
    this.root.append(this.panels, this.bar, this.note, this.belows, this.legend, this.hint, this.live);
    // The keys are taken at the window, before the page's own shortcuts: Notebook 7 reads them on the
    // document in the capture phase and would move between cells on → and ←
    this.onKey = (event) => { if (this.root.contains(event.target)) this.key(event); };
    window.addEventListener("keydown", this.onKey, true);
    el.append(this.root);
  }

  async load() {
    let data;
    try {
      data = await inflate(this.model.get("frames"));
    } catch (error) {
      this.note.textContent = `These frames cannot be read (${error.message}).`;
      return;
    }
    if (data.version !== 1) { this.note.textContent = `Frames of version ${data.version}: this player reads version 1.`; return; }
    const playing = Boolean(this.timer) && this.fetching;  // a window of steps came while playing: play on
    this.fetching = false;
    this.stop();
    const focused = this.root.contains(document.activeElement) ? document.activeElement : null;
    const focusedText = focused && focused.tagName === "BUTTON" ? focused.textContent : null;
    this.data = data;
    this.root.classList.toggle("gp-projector", Boolean(data.projector));
    this.views = data.panels.map((panel, index) => new PanelView(data, panel, index, this));
    this.panels.replaceChildren(...this.views.map((view) => view.element));
    this.belows.replaceChildren(...this.views.map((view) => view.below));
    this.legend.textContent = data.legend || "";
    this.legend.hidden = !data.legend;
    this.hint.hidden = Boolean(data.page_keys);  // a slide page says its keys itself
    this.buildBar();
    if (data.page_keys && !this.pageKeys) {  // a slide page: the keys step wherever the focus is
      this.pageKeys = (event) => { if (!this.root.contains(event.target)) this.key(event); };
      document.addEventListener("keydown", this.pageKeys);
    }
    this.only = this.views.length > 1 ? this.only ?? -1 : -1;
    this.fit();
    this.go(Math.min(this.model.get("step") ?? 0, data.steps), false);
    if (playing) this.play();
    if (this.editing) this.views[0].edit(true);
    if (focused && !this.root.contains(focused)) {  // new frames rebuilt what had the focus: give it back
      const same = [...this.bar.querySelectorAll("button")].find((button) => button.textContent === focusedText);
      (same || this.views.find((view) => !view.element.hidden)?.picture)?.focus();
    }
  }

  pressed(states) {  // Python says which of its toggles are on (after it answered one)
    for (const [id, on] of Object.entries(states)) {
      const toggle = this.bar.querySelector(`[data-action="${id}"]`);
      if (toggle) toggle.setAttribute("aria-pressed", String(Boolean(on)));
    }
  }

  buildBar() {
    const data = this.data;
    this.buttons = {
      first: button("|◀ Start", "start: step 0", () => this.go(0)),
      back: button("◀ Back", "back one step", () => this.go(this.step - 1)),
      next: button("Next ▶", "next step", () => this.go(this.step + 1)),
      last: button("End ▶|", "end: the last step", () => this.go(data.steps)),  // at an end, aria-disabled: kept focusable
    };
    this.playButton = button("▶ Play", "play the steps, or pause", () => this.toggle());
    this.speed = make("select", { class: "gp-speed", "aria-label": "steps a second", title: "steps a second" });
    for (const speed of SPEEDS) this.speed.append(make("option", { value: String(speed) }, `${speed}/s`));
    this.speed.value = "2";
    this.speed.addEventListener("change", () => { if (this.timer) { this.stop(); this.play(); } });
    this.slider = make("input", { type: "range", class: "gp-slider", min: "0", max: String(data.steps), value: "0",
      "aria-label": "step" });
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    this.counter = make("span", { class: "gp-counter", "aria-hidden": "true" });
    const parts = [this.buttons.first, this.buttons.back, this.buttons.next, this.buttons.last, this.playButton, this.speed,
      this.slider, this.counter];
    if (data.panels.some((panel) => panel.edit)) {
      this.editButton = button("✎ Edit leaves", "a number box under every leaf", () => this.toggleEdit());
      this.editButton.setAttribute("aria-pressed", String(this.editing));
    }
    for (const jump of data.jumps || []) {
      parts.push(button(`◀ ${jump.label}`, `back to the previous ${jump.label.toLowerCase()}`, () => this.jump(jump.steps, -1)),
        button(`${jump.label} ▶`, `on to the next ${jump.label.toLowerCase()}`, () => this.jump(jump.steps, 1)));
    }
    if (this.views.length > 1) {
      this.choice = make("select", { class: "gp-choice", "aria-label": "searches shown", title: "searches shown" });
      this.choice.append(make("option", { value: "-1" }, "both, side by side"));
      this.views.forEach((view, index) => this.choice.append(make("option", { value: String(index) }, `${view.panel.name} only`)));
      this.choice.addEventListener("change", () => {
        this.only = Number(this.choice.value); this.chosen = true; this.arrange();
      });
      parts.push(this.choice);
    }
    if (this.editButton) parts.push(this.editButton);
    for (const action of data.actions || []) parts.push(this.toggleButton(action));
    this.bar.replaceChildren(...parts);
  }

  fit() {  // two pictures side by side only where each keeps its smallest text at 12 pixels
    if (this.views.length < 2 || this.chosen) return this.arrange();
    const need = this.views.reduce((sum, view) => sum + (view.panel.min_width || 0) + 8, 0);  // + each panel's padding
    this.only = this.root.clientWidth && this.root.clientWidth < need ? 0 : -1;
    this.arrange();
    if (!this.resizer && typeof ResizeObserver !== "undefined") {
      let width = this.root.clientWidth;
      this.resizer = new ResizeObserver(() => {
        if (Math.abs(this.root.clientWidth - width) > 8) { width = this.root.clientWidth; this.fit(); }
      });
      this.resizer.observe(this.root);
    }
  }

  arrange() {
    this.views.forEach((view, index) => { view.element.hidden = view.below.hidden = this.only >= 0 && index !== this.only; });
    if (this.choice) this.choice.value = String(this.only);
    if (this.counter && this.data) this.count();  // the counter names the search shown
  }

  go(step, announce = true) {
    if (!this.data) return;
    step = Math.max(0, Math.min(this.data.steps, step));
    const held = this.data.window;
    if (held && (step < held[0] || step > held[1])) return this.fetch(step, held);
    this.step = step;
    for (const view of this.views) view.show(step);
    this.slider.value = String(step);
    this.slider.setAttribute("aria-valuetext", `step ${step} of ${this.data.steps}`);
    this.count();
    for (const [name, off] of [["first", step === 0], ["back", step === 0], ["next", step === this.data.steps],
      ["last", step === this.data.steps]]) this.buttons[name].setAttribute("aria-disabled", String(off));
    if (announce && !this.timer) this.live.textContent = this.views.filter((view) => !view.element.hidden)
      .map((view) => `${view.panel.name || view.panel.title}: ${sentences(view.words)}`).join(" ");
    if (this.model.get("step") !== step) { this.model.set("step", step); this.model.save_changes(); }
    if (step === this.data.steps) this.stop();
  }

  fetch(step, held) {  // a step beyond the window of steps these frames hold: Python draws the steps around it
    if (!this.model.get("kernel")) {
      this.stop();
      return this.needsPython(`Step ${step} is beyond the steps this page holds (${held[0]} to ${held[1]}); drawing it`);
    }
    this.note.textContent = `Drawing the steps around step ${step}…`;
    if (this.model.get("step") !== step) { this.model.set("step", step); this.model.save_changes(); }
    if (this.fetching) return;  // one request at a time: the frames that come back are checked against the step then
    this.fetching = true;
    this.model.send({ window: step });
  }

  count() {  // "step k of n", and where the one search shown ends when it ends sooner
    const shown = this.only >= 0 ? this.views[this.only] : null;
    const ends = shown && shown.panel.last < this.data.steps ? ` (${shown.panel.name} ends at ${shown.panel.last})` : "";
    this.counter.textContent = `step ${this.step} of ${this.data.steps}${ends}`;
  }

  jump(steps, direction) {
    const target = direction > 0 ? steps.find((step) => step > this.step) : [...steps].reverse().find((step) => step < this.step);
    this.go(target ?? (direction > 0 ? this.data.steps : 0));
  }

  play() {
    if (this.step >= this.data.steps) this.go(0);
    this.timer = setInterval(() => this.go(this.step + 1), 1000 / Number(this.speed.value));
    this.playButton.textContent = "❚❚ Pause";
  }

  stop() {
    if (!this.timer) return;
    clearInterval(this.timer); this.timer = null;
    this.playButton.textContent = "▶ Play";
    this.go(this.step);  // says where it stopped (nothing is said while it plays)
  }

  toggle() { if (this.timer) this.stop(); else this.play(); }

  key(event) {
    const target = event.target, tag = target.tagName, action = KEYS[event.key];
    if (!action || event.altKey || event.ctrlKey || event.metaKey || tag === "TEXTAREA" || target.isContentEditable) return;
    const paging = event.key === "PageDown" || event.key === "PageUp";  // a clicker's keys: always the player's
    if ((tag === "INPUT" || tag === "SELECT") && !(paging && target.type !== "number")) return;
    if (action === "play" && (tag === "BUTTON" || tag === "SUMMARY" || tag === "A")) return;  // space presses it
    event.preventDefault();
    event.stopPropagation();  // JupyterLab's own shortcuts stay out of it
    if (action === "play") this.toggle();
    else this.go({ next: this.step + 1, back: this.step - 1, first: 0, last: this.data.steps }[action]);
  }

  toggleButton(action) {  // a toggle that Python answers (the tools, Projector): it says so in a page with none
    const element = button(action.label, action.name, () => {
      if (!this.model.get("kernel")) return this.needsPython(`"${action.label}"`);
      const on = element.getAttribute("aria-pressed") !== "true";
      element.setAttribute("aria-pressed", String(on));
      this.model.send({ action: action.id, on });
    });
    element.setAttribute("aria-pressed", String(Boolean(action.pressed)));
    element.setAttribute("data-action", action.id);
    return element;
  }

  needsPython(what) {
    this.note.textContent = `${what} needs Python, and this page has none: open the lesson in JupyterLab, or in the ` +
      "course's browser version, where Python runs in the page.";
  }

  toggleEdit() {
    if (!this.model.get("kernel")) return this.needsPython("Editing a leaf searches the tree again, which");
    this.editing = !this.editing;
    this.editButton.setAttribute("aria-pressed", String(this.editing));
    this.model.send({ edit: this.editing });
    this.views[0].edit(this.editing);
  }

  setLeaf(leaf, value, input) {
    const number = Number(value);
    if (value === "" || !Number.isFinite(number)) { input.setCustomValidity("a number"); input.reportValidity(); return; }
    input.setCustomValidity("");
    this.note.textContent = `Searching again with leaf ${leaf} = ${number}…`;
    this.model.send({ set_leaf: [leaf, number] });
  }
}

function render({ model, el }) {
  const player = new Player(model, el);
  player.load();
  model.on("change:frames", () => { player.note.textContent = ""; player.load(); });
  model.on("change:step", () => { if (model.get("step") !== player.step) player.go(model.get("step")); });
  model.on("msg:custom", (message) => {
    if (message && message.note !== undefined) { player.note.textContent = message.note; player.fetching = false; }
    if (message && message.pressed) player.pressed(message.pressed);
  });
  return () => {
    player.stop();
    if (player.resizer) player.resizer.disconnect();
    window.removeEventListener("keydown", player.onKey, true);
    if (player.pageKeys) document.removeEventListener("keydown", player.pageKeys);
  };
}

function mountAll(document_ = document) {  // a page without a kernel: each [data-gamelib-frames] element
  for (const source of document_.querySelectorAll("script[data-gamelib-frames]:not([data-mounted])")) {
    source.setAttribute("data-mounted", "");
    const state = { frames: source.textContent.trim(), step: Number(source.dataset.step || 0), kernel: false };
    const model = { get: (name) => state[name], set: (name, value) => { state[name] = value; }, save_changes() {}, on() {},
      send() {} };
    const mount = make("div", { class: "gp-mount" });
    source.after(mount);
    render({ model, el: mount });
  }
}

export default { render, mountAll };
