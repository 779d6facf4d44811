/** The dashboard's stylesheet, served from the sandbox itself (`/dashboard/dashboard.css`): no inline style, no CDN. */
export const DASHBOARD_CSS = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;background:#eef1f6}
header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.8rem 1.2rem;background:#1d2330;color:#fff}
header h1{margin:0;font-size:1.3rem}
header .tag{font-size:.75rem;padding:.1rem .5rem;border:1px solid #8a93a6;border-radius:1rem;color:#c9cfdb}
header nav{margin-left:auto;display:flex;gap:1rem}
header a{color:#c9d8ff}
main{display:grid;grid-template-columns:minmax(0,1fr);gap:1rem;padding:1rem 1.2rem}
section{background:#fff;border:1px solid #d5dae3;border-radius:6px;padding:.8rem 1rem;min-width:0}
.users-grid{display:grid;grid-template-columns:minmax(14rem,19rem) minmax(0,1fr);gap:1.2rem;align-items:start}
.game-body{display:grid;grid-template-columns:minmax(0,1.3fr) minmax(0,1fr);gap:1.2rem;align-items:start}
@media (max-width:900px){.users-grid,.game-body{grid-template-columns:minmax(0,1fr)}}
h2{margin:.1rem 0 .6rem;font-size:1.1rem}
h3{margin:1rem 0 .4rem;font-size:1rem;display:flex;align-items:baseline;gap:.6rem}
h4{margin:.7rem 0 .3rem;font-size:.9rem;color:#5b6476;text-transform:uppercase;letter-spacing:.03em}
code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#e3e7ef;padding:.05rem .3rem;border-radius:3px;overflow-wrap:break-word}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #e6e9ef;vertical-align:top}
th{font-weight:600;color:#5b6476;font-size:.8rem;text-transform:uppercase;letter-spacing:.03em}
.game-body td code{white-space:nowrap}
.game-body .saves{grid-column:1/-1}
.game-body td.preview code{white-space:pre-wrap;overflow-wrap:anywhere}
td.uri code{overflow-wrap:anywhere}
td .kind{font-size:.8rem}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.muted{color:#5b6476}
.empty{color:#5b6476;font-style:italic}
.error{color:#a4161a}
a{color:#2251c5}
form.search{display:flex;gap:.4rem;margin-bottom:.6rem}
form.search input{flex:1;min-width:0}
input,button{font:inherit;padding:.25rem .6rem}
button{cursor:pointer}
ul.results{list-style:none;margin:0;padding:0;max-height:28rem;overflow:auto}
ul.results li{border-bottom:1px solid #eef0f4}
ul.results button{display:flex;flex-direction:column;width:100%;background:none;border:0;padding:.3rem .4rem;text-align:left;color:#2251c5}
ul.results button code{font-size:11.5px;background:none;padding:0;color:#5b6476}
ul.results button:hover,ul.results button[aria-pressed="true"]{background:#eef3ff}
.user-head{display:flex;align-items:center;gap:.8rem}
.user-head img{border-radius:50%}
.user-head .name{font-size:1.15rem;font-weight:700}
.badge{display:inline-block;font-size:.72rem;padding:0 .45rem;border-radius:1rem;background:#e3e7ef;color:#1d2330;margin-left:.3rem}
.badge.premium{background:#fff1c2}
.state-completed{color:#137333;font-weight:600}
.state-in-progress{color:#8a5a00}
.state-revoked{color:#a50e0e;text-decoration:line-through}
.state-not-started{color:#5b6476}
progress{width:5rem;vertical-align:middle}
.log-bar{display:flex;align-items:center;gap:1rem;margin-bottom:.4rem}
.log-bar .status{margin-right:auto}
.log-scroll{max-height:22rem;overflow:auto}
#log{table-layout:fixed}
#log col.c-time{width:7.5em}
#log col.c-method{width:5em}
#log col.c-path{width:48%}
#log col.c-status{width:4.2em}
#log col.c-ms{width:4.5em}
#log td{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
#log td.path{cursor:help}
#log.hide-own tr.own{display:none}
.log-bar label{white-space:nowrap}
#log tr.s4 td.status{color:#8a5a00;font-weight:600}
#log tr.s5 td.status{color:#a4161a;font-weight:600}
#log td.reason{white-space:normal;overflow-wrap:anywhere;color:#a4161a}
#log td.reason .handshake{color:#5b6476}
`;
