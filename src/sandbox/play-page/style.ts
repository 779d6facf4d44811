/** The play page's style sheet, inline in each page (the CSP allows inline styles, no inline script). */
export const PLAY_STYLE = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;background:#eef1f6}
header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.8rem 1.2rem;background:#1d2330;color:#fff}
header h1{margin:0;font-size:1.3rem}
header .tag{font-size:.75rem;padding:.1rem .5rem;border:1px solid #8a93a6;border-radius:1rem;color:#c9cfdb}
header .who{margin-left:auto;display:flex;align-items:center;gap:.5rem}
header .who img{border-radius:50%}
code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#e3e7ef;padding:.05rem .3rem;border-radius:3px;word-break:break-all}
header code{background:#2f3748;color:#dfe4ee}
nav.switch{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem .8rem;padding:.5rem 1.2rem;background:#fff;border-bottom:1px solid #d5dae3}
nav.switch a,nav.switch button.user{color:#2251c5}
nav.switch [aria-current]{font-weight:700;color:#1d2330;text-decoration:none}
nav.switch form{display:inline}
nav.switch form.any{margin-left:auto;display:flex;gap:.3rem}
button.user{background:none;border:none;padding:0;text-decoration:underline;cursor:pointer}
input,button{font:inherit;padding:.2rem .5rem}
main{padding:1rem 1.2rem}
#frame-box{position:relative;width:100%;height:70vh;min-width:240px;min-height:240px;max-width:100%;resize:both;overflow:hidden;border:1px solid #c5ccd8;border-radius:6px;background:#fff}
iframe.game{display:block;width:100%;height:100%;border:0}
.frame-bar{display:flex;flex-wrap:wrap;align-items:center;gap:.3rem .8rem;margin-top:.3rem;font-size:.85rem}
.frame-bar button{font-size:.85rem;padding:.05rem .5rem}
.box{max-width:52rem;background:#fff;border:1px solid #d5dae3;border-radius:6px;padding:1rem 1.2rem}
.box.warn{border-color:#e0a800;background:#fff8e1}
ul.users{padding-left:1.2rem}
details{margin-top:.8rem;max-width:80rem}
.muted{color:#5b6476}
#stage{position:relative}
#store{position:fixed;inset:0;z-index:10;display:flex;align-items:center;justify-content:center;padding:1rem;background:rgba(20,24,34,.55)}
#store .store-box{display:flex;flex-direction:column;background:#fff;border-radius:8px;padding:1rem 1.2rem;min-width:min(22rem,100%);max-width:100%;max-height:100%;box-shadow:0 8px 30px rgba(0,0,0,.3)}
#store h2{margin:.1rem 0 .6rem;flex:none}
#store ul.products{list-style:none;padding:0;margin:0 0 .8rem;flex:1 1 auto;min-height:0;overflow:auto}
#store .store-actions{flex:none;display:flex;justify-content:flex-end;padding-top:.6rem;border-top:1px solid #e3e7ef}
#store li.product button.buy:disabled{cursor:default}
#store li.product{display:flex;align-items:center;gap:1rem;padding:.45rem 0;border-bottom:1px solid #e3e7ef}
#store li.product .info{flex:1;display:flex;flex-direction:column}
#store li.product .name{font-weight:600}
#store li.product .sku{color:#5b6476;font:12px ui-monospace,monospace}
#store li.product .meta{display:flex;flex-direction:column;align-items:flex-end;min-width:7rem;font-size:.85rem;color:#5b6476}
#store li.product .price{font-size:1rem;font-weight:600;color:#1d2330}
#store li.product .pack:empty{display:none}
#store .store-message:empty{display:none}
#store .store-message{color:#a33}
#quest-notice{position:absolute;z-index:2;right:1rem;top:1rem;background:#1d2330;color:#fff;padding:.6rem .9rem;border-radius:6px;box-shadow:0 4px 16px rgba(0,0,0,.3)}
#quest-notice .quest-state{color:#ffd35c}
`;
