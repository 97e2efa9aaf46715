/// The one stylesheet of every store page: system colors for light and dark, a type scale, and
/// layouts that go from phone to desktop. Inline in the page; nothing is fetched.
enum Stylesheet {
    static let css = #"""
:root{--sk-bg:#fff;--sk-grouped:#f2f2f7;--sk-card:#fff;--sk-label:#000;--sk-secondary-label:#3c3c43bf;--sk-separator:#3c3c4349;--sk-accent:#0a66d6;--sk-on-accent:#fff;--sk-gray:#8e8e93;--sk-red:#d70015;--sk-orange:#c93400;--sk-yellow:#b25000;--sk-green:#248a3d;--sk-mint:#0c817b;--sk-teal:#008299;--sk-cyan:#0071a4;--sk-blue:#0040dd;--sk-indigo:#3634a3;--sk-purple:#8944ab;--sk-pink:#d30f45;--sk-brown:#7f6545;--sk-material-ultrathin:rgb(255 255 255/.45);--sk-material-thin:rgb(255 255 255/.6);--sk-material-regular:rgb(255 255 255/.75);--sk-material-thick:rgb(255 255 255/.9);--sk-radius:14px;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root:not([data-color-scheme=light]){--sk-bg:#000;--sk-grouped:#1c1c1e;--sk-card:#1c1c1e;--sk-label:#fff;--sk-secondary-label:#ebebf599;--sk-separator:#54545899;--sk-accent:#409cff;--sk-on-accent:#000;--sk-material-ultrathin:rgb(30 30 30/.45);--sk-material-thin:rgb(30 30 30/.6);--sk-material-regular:rgb(30 30 30/.75);--sk-material-thick:rgb(30 30 30/.9);--sk-red:#ff6961;--sk-orange:#ffb340;--sk-yellow:#ffd426;--sk-green:#30db5b;--sk-mint:#66d4cf;--sk-teal:#5de6ff;--sk-cyan:#70d7ff;--sk-blue:#409cff;--sk-indigo:#7d7aff;--sk-purple:#da8fff;--sk-pink:#ff6482;--sk-brown:#b59469}}
:root[data-color-scheme=dark]{--sk-bg:#000;--sk-grouped:#1c1c1e;--sk-card:#1c1c1e;--sk-label:#fff;--sk-secondary-label:#ebebf599;--sk-separator:#54545899;--sk-accent:#409cff;--sk-on-accent:#000;--sk-material-ultrathin:rgb(30 30 30/.45);--sk-material-thin:rgb(30 30 30/.6);--sk-material-regular:rgb(30 30 30/.75);--sk-material-thick:rgb(30 30 30/.9);--sk-red:#ff6961;--sk-orange:#ffb340;--sk-yellow:#ffd426;--sk-green:#30db5b;--sk-mint:#66d4cf;--sk-teal:#5de6ff;--sk-cyan:#70d7ff;--sk-blue:#409cff;--sk-indigo:#7d7aff;--sk-purple:#da8fff;--sk-pink:#ff6482;--sk-brown:#b59469;color-scheme:dark}
:root[data-color-scheme=light]{color-scheme:light}
*{box-sizing:border-box}
body{margin:0;background:var(--sk-bg);color:var(--sk-label);font:1rem/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;-webkit-font-smoothing:antialiased}
.sk-page{max-width:72rem;margin:0 auto;padding:1rem clamp(.75rem,3vw,2rem) 3rem}
.sk-page-header{display:flex;flex-wrap:wrap;gap:.75rem 1.5rem;align-items:center;justify-content:space-between;padding:.75rem clamp(.75rem,3vw,2rem);border-bottom:1px solid var(--sk-separator);background:var(--sk-grouped)}
.sk-page-header a{color:var(--sk-accent)}
h1,h2,h3{line-height:1.2;margin:.2em 0}
a{color:var(--sk-accent)}
.sk-visually-hidden,.sk-plans-legend{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap}
.sk-vstack{display:flex;flex-direction:column;gap:.5rem}.sk-hstack{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.sk-align-leading{align-items:flex-start}.sk-align-center{align-items:center;text-align:center}.sk-align-trailing{align-items:flex-end}
.sk-zstack{display:grid;place-items:center}.sk-zstack>*{grid-area:1/1}.sk-circle{width:100%;aspect-ratio:1;border-radius:50%;background:currentColor}
.sk-label{display:inline-flex;gap:.4em;align-items:center}.sk-unavailable{display:flex;flex-direction:column;align-items:center;text-align:center;gap:.5rem;padding:2rem 1rem}.sk-unavailable p{margin:0}.sk-unavailable-label{font-size:1.375rem;font-weight:700}.sk-unavailable-label .sk-label{flex-direction:column}.sk-unavailable-label .sk-symbol{font-size:2.5em;color:var(--sk-secondary-label)}.sk-unavailable-description{color:var(--sk-secondary-label)}.sk-unavailable-description:empty,.sk-unavailable-actions:empty{display:none}
.sk-valign-top{align-items:flex-start}.sk-valign-bottom{align-items:flex-end}.sk-spacer{flex:1}
.sk-font-largeTitle{font-size:2.125rem;font-weight:700;display:block}.sk-font-title{font-size:1.75rem;font-weight:700;display:block}.sk-font-title2{font-size:1.375rem;font-weight:700}.sk-font-title3{font-size:1.25rem;font-weight:600}.sk-font-headline{font-weight:600}.sk-font-subheadline{font-size:.9375rem}.sk-font-callout{font-size:1rem}.sk-font-footnote{font-size:.8125rem}.sk-font-caption{font-size:.75rem;color:var(--sk-secondary-label)}
.sk-bold{font-weight:700}.sk-symbol{font-size:1.6em;line-height:1}
.sk-divider{border:0;border-top:1px solid var(--sk-separator);margin:1rem 0}
.sk-action-form{display:inline-block;margin:0}
.sk-button{font:inherit;font-weight:600;border:0;border-radius:999px;padding:.5rem 1.1rem;min-height:2.75rem;min-width:2.75rem;background:var(--sk-accent);color:var(--sk-on-accent);cursor:pointer;display:inline-flex;flex-direction:column;align-items:center;justify-content:center;gap:.1rem;text-decoration:none}
.sk-button:hover{filter:brightness(1.08)}.sk-button-cancel{background:var(--sk-grouped);color:var(--sk-accent)}.sk-button:disabled{opacity:.5;cursor:default}
:focus-visible{outline:3px solid var(--sk-accent);outline-offset:2px}
.sk-product{display:grid;grid-template-columns:auto 1fr auto;gap:.75rem 1rem;align-items:center;padding:.9rem 1rem;background:var(--sk-card);border-radius:var(--sk-radius);border:1px solid var(--sk-separator)}
.sk-product-text{min-width:0}.sk-product-name{font-size:1.0625rem;font-weight:600;overflow-wrap:anywhere}
.sk-product-description{margin:.15rem 0 0;color:var(--sk-secondary-label);font-size:.9375rem;overflow-wrap:anywhere}
.sk-product-period{margin:.15rem 0 0;font-size:.875rem;color:var(--sk-secondary-label)}
.sk-product-icon{grid-column:1;font-size:2rem;display:flex;align-items:center;justify-content:center;width:3.5rem;height:3.5rem}
.sk-product:not(:has(.sk-product-icon)) .sk-product-text{grid-column:1/3}
.sk-icon-border{border-radius:22%;border:1px solid var(--sk-separator);background:var(--sk-grouped)}.sk-icon-fill{display:flex;align-items:center;justify-content:center;width:100%;height:100%;box-sizing:border-box}
.sk-placeholder-icon{display:block;width:100%;height:100%;border-radius:22%;background:var(--sk-separator)}
.sk-app-icon{display:flex;align-items:center;justify-content:center;width:100%;height:100%;border-radius:22%;background:var(--sk-accent);color:var(--sk-on-accent);font-weight:700;font-size:1.4rem}
.sk-offer-view{display:grid;grid-template-columns:auto 1fr auto;gap:.5rem 1rem;align-items:center;padding:1rem;background:var(--sk-card);border-radius:var(--sk-radius);border:1px solid var(--sk-separator)}.sk-offer-view-compact{padding:.6rem .8rem}.sk-offer-view .sk-offer-details{grid-column:1/-1}.sk-offer-group{margin:0;font-size:.85em;opacity:.75}
.sk-product-compact{padding:.6rem .8rem}.sk-product-compact .sk-product-icon{width:2.5rem;height:2.5rem;font-size:1.5rem}
.sk-product-large{grid-template-columns:1fr;justify-items:center;text-align:center;padding:1.5rem}.sk-product-large .sk-product-icon,.sk-product-large .sk-product-text,.sk-product-large>.sk-action-form,.sk-product-large>.sk-owned{grid-column:1}
.sk-product-large .sk-product-icon{width:7rem;height:7rem;font-size:4rem}.sk-product-large .sk-product-name{font-size:1.5rem}
.sk-product-large .sk-product-text{grid-column:auto}
.sk-skeleton{color:transparent;background:var(--sk-separator);border-radius:6px;min-width:8rem}
.sk-owned{margin:0;font-weight:600;color:var(--sk-green)}
.sk-store-grid{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,20rem),1fr));gap:.75rem}
.sk-store-buttons{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:center;margin:.75rem 0}
.sk-store-buttons-top{justify-content:flex-end;margin:0}
.sk-store-button{font:inherit;background:none;border:0;color:var(--sk-accent);cursor:pointer;padding:.5rem;min-height:2.75rem}
.sk-close{font-size:1.1rem;border-radius:50%;background:var(--sk-separator);color:var(--sk-label);width:2.75rem}
.sk-redeem{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap}
.sk-redeem input{font:inherit;padding:.45rem .6rem;border-radius:8px;border:1px solid var(--sk-separator);background:var(--sk-card);color:var(--sk-label);min-height:2.75rem}
.sk-policies{display:flex;gap:1.25rem;justify-content:center;width:100%;font-size:.875rem}
.sk-subscription-store{position:relative;isolation:isolate;border-radius:calc(var(--sk-radius)*1.5);overflow:hidden;padding:1rem clamp(.75rem,3vw,2rem) 1.5rem;background:transparent}
.sk-full-background{position:absolute;inset:0;z-index:-1}.sk-full-background>*{width:100%;height:100%}
.sk-marketing{position:relative;isolation:isolate;padding:1rem 0 1.25rem;text-align:center}
.sk-header-background{position:absolute;inset:0;z-index:-1}
.sk-marketing-title{font-size:1.75rem}.sk-marketing-subtitle{color:var(--sk-secondary-label)}
.sk-store-controls{border-radius:var(--sk-radius);padding:1rem;max-width:40rem;margin:0 auto;background:var(--sk-material-regular);backdrop-filter:blur(20px)}
.sk-controls-background-gradientMaterial,.sk-controls-background-gradientMaterialOnScroll{position:relative;isolation:isolate;background:none;backdrop-filter:none}
.sk-controls-background-gradientMaterial::before,.sk-controls-background-gradientMaterialOnScroll::before{content:"";position:absolute;inset:0;z-index:-1;border-radius:inherit;background:var(--sk-material-regular);backdrop-filter:blur(20px);-webkit-mask-image:linear-gradient(to bottom,transparent,#000 3rem);mask-image:linear-gradient(to bottom,transparent,#000 3rem)}
@keyframes sk-appear{from{opacity:0}to{opacity:1}}
@supports (animation-timeline:scroll()){.sk-controls-background-gradientMaterialOnScroll::before{animation:sk-appear linear both;animation-timeline:scroll(root);animation-range:0 4rem}}
.sk-plans{border:0;margin:0 0 1rem;padding:0;display:grid;gap:.6rem}
.sk-plan{display:grid;grid-template-columns:auto auto 1fr;align-items:center;gap:.5rem .8rem;padding:.8rem 1rem;border-radius:var(--sk-radius);border:2px solid var(--sk-separator);background:var(--sk-card);cursor:pointer}
.sk-plan:has(input:checked){border-color:var(--sk-accent)}
.sk-plan:has(input:focus-visible){outline:3px solid var(--sk-accent);outline-offset:2px}
.sk-plan input{width:1.25rem;height:1.25rem;accent-color:var(--sk-accent);margin:0}
.sk-plan-icon{font-size:1.5rem}
.sk-plan-text{display:flex;flex-direction:column;grid-column:3}
.sk-plan-name{font-weight:600}
.sk-plan-price{font-size:1.125rem;font-weight:700}
.sk-plan-equivalent{font-size:.8125rem;color:var(--sk-secondary-label);font-weight:400}
.sk-plan-offer{font-size:.8125rem;color:var(--sk-green);font-weight:600}
.sk-badge{display:inline-block;font-size:.75rem;font-weight:600;padding:.1rem .5rem;border-radius:999px;background:var(--sk-grouped);width:fit-content}
.sk-plan-current{opacity:.85}
.sk-subscribe{width:100%;border-radius:var(--sk-radius);padding:.7rem 1rem;min-height:3.25rem}
.sk-label-line:first-child{font-size:1.0625rem}.sk-label-line+.sk-label-line{font-weight:400;font-size:.875rem}
.sk-button-caption{margin:0 0 .4rem;text-align:center;font-size:.875rem;color:var(--sk-secondary-label)}
.sk-plan-description{font-size:.875rem;color:var(--sk-secondary-label);font-weight:400;overflow-wrap:anywhere}p.sk-plan-description{margin:0}
.sk-controls-prominentPicker .sk-plan,.sk-controls-pagedProminentPicker .sk-plan{padding:1.2rem 1.25rem;box-shadow:0 2px 12px rgb(0 0 0/.14)}
.sk-controls-prominentPicker .sk-plans,.sk-controls-pagedProminentPicker .sk-plans{padding:6px}
.sk-controls-prominentPicker .sk-plan:has(input:checked),.sk-controls-pagedProminentPicker .sk-plan:has(input:checked){box-shadow:0 0 0 2px var(--sk-bg),0 0 0 5px var(--sk-accent),0 6px 18px rgb(0 0 0/.2)}
.sk-controls-prominentPicker .sk-plan-price{font-size:1.375rem}
.sk-controls-compactPicker .sk-plans{grid-auto-flow:column;grid-auto-columns:minmax(9rem,1fr);overflow-x:auto}
.sk-controls-compactPicker .sk-plan{grid-template-columns:auto 1fr}.sk-controls-compactPicker .sk-plan-text{grid-column:2}
.sk-controls-pagedPicker .sk-plans,.sk-controls-pagedProminentPicker .sk-plans{grid-auto-flow:column;grid-auto-columns:85%;overflow-x:auto;scroll-snap-type:x mandatory}
.sk-controls-pagedPicker .sk-plan,.sk-controls-pagedProminentPicker .sk-plan{scroll-snap-align:center}
.sk-controls-buttons{display:grid;gap:.75rem}
.sk-plan-button{display:grid;gap:.25rem;justify-items:stretch;text-align:center}
.sk-plan-button .sk-plan-equivalent{margin:0}
.sk-disclosure{font-size:.75rem;color:var(--sk-secondary-label);text-align:center;margin:.75rem 0 0}
.sk-progress{display:flex;gap:.6rem;align-items:center;justify-content:center;padding:1.5rem}
.sk-spinner{width:1.4rem;height:1.4rem;border-radius:50%;border:3px solid var(--sk-separator);border-top-color:var(--sk-accent);animation:sk-spin 1s linear infinite}
@keyframes sk-spin{to{transform:rotate(1turn)}}
@media (prefers-reduced-motion:reduce){.sk-spinner{animation:none}}
.sk-notice{padding:.75rem 1rem;border-radius:var(--sk-radius);background:var(--sk-grouped);border-inline-start:4px solid var(--sk-green);margin:0 0 1rem}
.sk-notice-error{border-color:var(--sk-red)}
.sk-error{color:var(--sk-red)}
.sk-panel{background:var(--sk-card);border:1px solid var(--sk-separator);border-radius:var(--sk-radius);padding:1rem 1.25rem}
.sk-customer-picker{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap}
.sk-customer-picker select,.sk-customer-picker input{font:inherit;padding:.35rem .5rem;border-radius:8px;border:1px solid var(--sk-separator);background:var(--sk-card);color:var(--sk-label);min-height:2.5rem}
.sk-section-title{font-size:1.375rem;margin:1.5rem 0 .75rem}
[aria-busy=true] .sk-buy,.sk-busy button{pointer-events:none;opacity:.6}
@media (max-width:30rem){.sk-product:not(.sk-product-large){grid-template-columns:auto 1fr}.sk-product:not(.sk-product-large)>.sk-action-form,.sk-product:not(.sk-product-large)>.sk-owned{grid-column:1/-1;justify-self:stretch}.sk-product>.sk-action-form .sk-button{width:100%}}
.sk-vstack>:is(.sk-product,section,.sk-vstack,.sk-panel,.sk-frame,.sk-store,form){align-self:stretch}
"""#
}
