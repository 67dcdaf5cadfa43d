/** The setup page's style sheet, sent inline under the page's nonce. */
export const SETUP_STYLE = `
:root { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; color: #1f2937; background: #f3f4f6; }
body { margin: 0; padding: 1rem; }
main { box-sizing: border-box; max-width: 52rem; margin: 2rem auto; }
header, .step { box-sizing: border-box; margin: 0 0 1.25rem; padding: 1.25rem 1.5rem; background: #fff; \
border-radius: .75rem; box-shadow: 0 1px 3px rgb(0 0 0 / 15%); }
h1 { margin: 0 0 .5rem; font-size: 1.6rem; line-height: 1.25; overflow-wrap: anywhere; }
h2 { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; margin: 0 0 .5rem; font-size: 1.25rem; }
h3 { margin: 0 0 .5rem; font-size: 1.05rem; overflow-wrap: anywhere; }
h1:focus, h2:focus, h3:focus { outline: none; }
p { margin: 0 0 .75rem; overflow-wrap: anywhere; }
.steps { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; margin: .75rem 0 0; padding: 0; list-style: none; }
.state { display: inline-block; padding: .1rem .6rem; font-size: .8rem; font-weight: 600; border-radius: 999px; }
.state-done { color: #065f46; background: #d1fae5; }
.state-in-progress { color: #92400e; background: #fef3c7; }
.state-to-do { color: #374151; background: #e5e7eb; }
.card { margin: 0 0 1rem; padding: 1rem; border: 1px solid #d1d5db; border-radius: .5rem; }
.status { font-weight: 600; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; }
.status-verified, .status-active { color: #065f46; }
dl.values { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: .4rem 1rem; margin: 0 0 .75rem; }
dl.values dt { font-weight: 600; color: #4b5563; }
dl.values dd { display: flex; gap: .5rem; align-items: flex-start; margin: 0; min-width: 0; }
dl.values dd code { flex: 0 1 auto; min-width: 0; }
dl.values dd button { flex: none; }
code { padding: .1rem .3rem; font-size: .85rem; background: #f3f4f6; border-radius: .25rem; overflow-wrap: anywhere; }
.hint { display: block; color: #4b5563; font-size: .9rem; }
.field { margin: 0 0 .75rem; }
.field label { display: block; font-weight: 600; }
input[type=text], input[type=url], input[type=password], textarea, select { box-sizing: border-box; max-width: 100%; \
padding: .45rem .6rem; font: inherit; border: 1px solid #6b7280; border-radius: .375rem; }
input[type=text], input[type=url], input[type=password], textarea { width: 32rem; }
fieldset { margin: 0 0 .75rem; padding: .5rem .75rem; border: 1px solid #d1d5db; border-radius: .375rem; }
legend { font-weight: 600; }
.choice { display: inline-block; margin: 0 1rem .25rem 0; }
ol.guide { margin: 0 0 .75rem; padding-left: 1.5rem; }
details { margin: 0 0 .75rem; }
summary { cursor: pointer; color: #1d4ed8; }
button { padding: .5rem 1rem; font: inherit; font-weight: 600; color: #fff; background: #1d4ed8; border: 0; \
border-radius: .375rem; cursor: pointer; }
button:hover { background: #1e40af; }
button:disabled { background: #4b5563; cursor: progress; }
button.secondary { color: #1d4ed8; background: #fff; border: 1px solid #1d4ed8; }
button.secondary:hover { background: #eff6ff; }
button.copy { padding: .2rem .6rem; font-size: .85rem; color: #1d4ed8; background: #eff6ff; border: 1px solid #93c5fd; }
button.copy:hover { background: #dbeafe; }
button:focus-visible, a:focus-visible, summary:focus-visible, input:focus-visible, select:focus-visible, \
textarea:focus-visible { outline: 3px solid #b45309; outline-offset: 2px; }
a { color: #1d4ed8; }
.result:empty { display: none; }
.result { padding: .6rem .8rem; color: #1e3a8a; background: #eff6ff; border-radius: .375rem; }
.result.error { color: #991b1b; background: #fef2f2; }
.check-record_not_found, .check-token_mismatch, .test-failed { color: #991b1b; }
.test-ok, .check-found { color: #065f46; }
ol.mapping { margin: 0 0 .75rem; padding: 0; list-style: none; }
.mapping-row { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin: 0 0 .5rem; }
.mapping-row .field { margin: 0; }
.mapping-row input { width: 16rem; }
.secret { margin: 0 0 .75rem; padding: .75rem; background: #fffbeb; border: 1px solid #f59e0b; border-radius: .375rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 40rem) { dl.values { grid-template-columns: 1fr; } }
`;
