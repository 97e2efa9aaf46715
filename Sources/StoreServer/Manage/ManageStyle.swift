/// The dashboard's few styles on top of the store pages' stylesheet (same colours, light and
/// dark): navigation, tables, forms, badges, the subscription timeline and the charts.
enum ManageStyle {
    static let css = #"""
.mg-nav{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;width:100%}
.mg-nav ul{display:flex;flex-wrap:wrap;gap:.25rem .9rem;list-style:none;margin:0;padding:0}
.mg-nav a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
.mg-brand{font-weight:700}.mg-world{font-size:.875rem;color:var(--sk-secondary-label)}
.mg-form{display:flex;flex-wrap:wrap;gap:.5rem .75rem;align-items:flex-end;margin:.5rem 0}
.mg-inline{margin:.15rem .25rem .15rem 0}
.mg-field{display:inline-flex;flex-direction:column;gap:.2rem;font-size:.875rem}
.mg-field input,.mg-field select,.mg-form textarea{font:inherit;padding:.4rem .55rem;border-radius:8px;border:1px solid var(--sk-secondary-label);background:var(--sk-card);color:var(--sk-label);min-height:2.5rem;min-width:6rem}
.mg-button{min-height:2.5rem;padding:.35rem .9rem;font-size:.9375rem}
.mg-destructive{background:var(--sk-red);color:#fff}
.mg-table{border-collapse:collapse;width:100%;font-size:.9375rem}
.mg-table th,.mg-table td{text-align:start;padding:.45rem .5rem;border-bottom:1px solid var(--sk-separator);vertical-align:top;overflow-wrap:anywhere}
.mg-table th{font-size:.8125rem;color:var(--sk-secondary-label);font-weight:600}
.mg-scroll{overflow-x:auto}
.mg-badge{display:inline-block;font-size:.75rem;font-weight:700;padding:.1rem .5rem;border-radius:999px;border:1px solid currentColor}
.mg-state-active{color:var(--sk-green)}.mg-state-grace,.mg-state-billing-retry{color:var(--sk-orange)}.mg-state-expired{color:var(--sk-secondary-label)}.mg-state-revoked,.mg-fail{color:var(--sk-red)}.mg-ok{color:var(--sk-green)}
.mg-grid{display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(min(100%,22rem),1fr))}
.mg-card{background:var(--sk-card);border:1px solid var(--sk-separator);border-radius:var(--sk-radius);padding:1rem;margin:0 0 1rem;min-width:0}
.mg-card h3{margin-top:0}
.mg-fields{display:grid;grid-template-columns:max-content 1fr;gap:.2rem .9rem;margin:.5rem 0;font-size:.875rem}
.mg-fields dt{color:var(--sk-secondary-label)}.mg-fields dd{margin:0;overflow-wrap:anywhere;font-family:ui-monospace,monospace}
.mg-jws{width:100%;min-height:4.5rem;font:.75rem/1.3 ui-monospace,monospace;resize:vertical;background:var(--sk-grouped);color:var(--sk-label);border:1px solid var(--sk-separator);border-radius:8px}
.mg-actions{display:flex;flex-wrap:wrap;align-items:flex-end;gap:.25rem}
.mg-clock{font-size:1.5rem;font-weight:700;font-variant-numeric:tabular-nums}
.mg-timeline,.mg-chart{display:block;width:100%;height:auto;max-width:100%}
.mg-timeline text,.mg-chart text{fill:var(--sk-label);font:11px system-ui,sans-serif}
.mg-axis{stroke:var(--sk-secondary-label);stroke-width:1}
.mg-bar-a{fill:var(--sk-accent)}.mg-bar-b{fill:var(--sk-green)}.mg-bar-fail{fill:var(--sk-red)}.mg-bar-grace{fill:var(--sk-orange)}.mg-bar-revoked{fill:var(--sk-red)}.mg-bar-expired{fill:var(--sk-gray)}
.mg-timeline .mg-run-count{fill:#fff;font-weight:600}
.mg-legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;font-size:.8125rem;list-style:none;padding:0;margin:.25rem 0}
.mg-swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:3px;margin-inline-end:.3rem;vertical-align:-.1rem}
.mg-muted{color:var(--sk-secondary-label);font-size:.875rem}
details.mg-details>summary{cursor:pointer;font-weight:600;min-height:2rem}
.mg-pre{white-space:pre-wrap;overflow-wrap:anywhere;font:.8125rem/1.35 ui-monospace,monospace;background:var(--sk-grouped);padding:.5rem;border-radius:8px;margin:.25rem 0}
progress{width:min(100%,30rem);height:1.25rem}
"""#
}
