// Small canvas time plots (no chart library): several series against time, labelled axes with
// units, a legend and a cursor at the replay's current time; clicking or dragging seeks.

// "Nice" tick values covering [lo, hi] (about n of them).
function ticks(lo, hi, n) {
  const span = hi - lo;
  if (!(span > 0)) return [lo];
  const raw = span / n, mag = 10 ** Math.floor(Math.log10(raw)), r = raw / mag;
  const step = (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9 * span; v += step) out.push(v);
  return out;
}

function formatTick(v) {
  if (v === 0) return '0';
  const a = Math.abs(v);
  return a >= 1e4 || a < 1e-3 ? v.toExponential(1) : String(Number(v.toPrecision(4)));
}

export class TimePlot {
  /**
   * canvas: the element; title, yLabel (with unit); times: Float64Array-like of the frames;
   * onSeek(time) called on click/drag.
   */
  constructor(canvas, { title, yLabel, times, onSeek }) {
    Object.assign(this, { canvas, title, yLabel, times, onSeek });
    this.series = [];
    this.cursor = times.length ? times[0] : 0;
    this.ctx = canvas.getContext('2d');
    let dragging = false;
    const seek = (ev) => {
      const r = canvas.getBoundingClientRect();
      const { x0, x1, t0, t1 } = this.frame ?? {};
      if (x1 === undefined || x1 <= x0) return;
      const u = Math.min(1, Math.max(0, (ev.clientX - r.left - x0) / (x1 - x0)));
      this.onSeek?.(t0 + u * (t1 - t0));
    };
    canvas.addEventListener('pointerdown', (ev) => { dragging = true; seek(ev); });
    canvas.addEventListener('pointermove', (ev) => { if (dragging) seek(ev); });
    window.addEventListener('pointerup', () => { dragging = false; });
  }

  /** Replaces the series: [{ name, color, values }] (NaN = no value at that frame). */
  setSeries(series) { this.series = series; this.draw(); }

  setCursor(time) { this.cursor = time; this.draw(); }

  draw() {
    const { canvas, ctx, times } = this;
    // Match the backing store to the displayed size.
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(50, Math.round(canvas.clientWidth * dpr));
    const h = Math.max(50, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const W = w / dpr, H = h / dpr;
    ctx.fillStyle = '#15181d';
    ctx.fillRect(0, 0, W, H);

    // Data ranges (finite values only).
    const t0 = times.length ? times[0] : 0, t1 = times.length ? times[times.length - 1] : 1;
    let lo = Infinity, hi = -Infinity;
    for (const s of this.series) for (const v of s.values) if (Number.isFinite(v)) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (!(hi >= lo)) { lo = 0; hi = 1; }
    if (hi - lo < 1e-12 * Math.max(1, Math.abs(hi))) { const m = Math.max(1e-9, Math.abs(hi) * 0.1 || 1); lo -= m; hi += m; }
    const pad = 0.06 * (hi - lo); lo -= pad; hi += pad;

    // Plot frame.
    const x0 = 52, x1 = W - 8, y0 = H - 28, y1 = 20;
    this.frame = { x0, x1, t0, t1 };
    const X = (t) => x0 + (t1 > t0 ? (t - t0) / (t1 - t0) : 0) * (x1 - x0);
    const Y = (v) => y0 - (v - lo) / (hi - lo) * (y0 - y1);
    ctx.font = '11px system-ui, sans-serif';
    ctx.strokeStyle = '#3a404a'; ctx.fillStyle = '#9aa3ae'; ctx.lineWidth = 1;
    ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
    for (const v of ticks(lo, hi, 4)) {
      ctx.beginPath(); ctx.moveTo(x0, Y(v)); ctx.lineTo(x1, Y(v)); ctx.stroke();
      ctx.fillText(formatTick(v), x0 - 4, Y(v));
    }
    ctx.textAlign = 'center'; ctx.textBaseline = 'top';
    for (const t of ticks(t0, t1, 5)) ctx.fillText(formatTick(t), X(t), y0 + 3);
    ctx.strokeStyle = '#6b7380';
    ctx.strokeRect(x0, y1, x1 - x0, y0 - y1);

    // Labels: title and y label on top, time below.
    ctx.fillStyle = '#dde2e8'; ctx.textAlign = 'left'; ctx.textBaseline = 'top';
    ctx.fillText(`${this.title} — ${this.yLabel}`, x0, 3);
    ctx.textAlign = 'right'; ctx.textBaseline = 'bottom';
    ctx.fillStyle = '#9aa3ae';
    ctx.fillText('time [s]', x1, H - 1);

    // Series (gaps at NaN) and legend.
    let lx = x0 + 6;
    for (const s of this.series) {
      ctx.strokeStyle = s.color; ctx.lineWidth = 1.5; ctx.beginPath();
      let pen = false;
      for (let i = 0; i < s.values.length; ++i) {
        const v = s.values[i];
        if (!Number.isFinite(v)) { pen = false; continue; }
        if (pen) ctx.lineTo(X(times[i]), Y(v)); else ctx.moveTo(X(times[i]), Y(v));
        pen = true;
      }
      ctx.stroke();
      // Isolated values (no finite neighbour) as dots, since no segment shows them.
      ctx.fillStyle = s.color;
      for (let i = 0; i < s.values.length; ++i) {
        if (Number.isFinite(s.values[i]) && !Number.isFinite(s.values[i - 1]) && !Number.isFinite(s.values[i + 1])) {
          ctx.fillRect(X(times[i]) - 1.5, Y(s.values[i]) - 1.5, 3, 3);
        }
      }
      ctx.fillStyle = s.color; ctx.textAlign = 'left'; ctx.textBaseline = 'top';
      ctx.fillText(s.name, lx, y1 + 3);
      lx += ctx.measureText(s.name).width + 12;
    }

    // Cursor at the current time.
    ctx.strokeStyle = '#ffd166'; ctx.lineWidth = 1;
    ctx.beginPath(); ctx.moveTo(X(this.cursor), y1); ctx.lineTo(X(this.cursor), y0); ctx.stroke();
  }
}
