/// The page's small script. Everything works without it (plain forms); with it, actions post in
/// the background, the page updates in place, buttons show progress, the subscribe button (and the
/// caption above it) follows the selected plan, and `openstore:purchase` events reach the page's own code.
enum PageScript {
    static let js = #"""
(function(){
"use strict";
function label(button,input){if(!button||!input)return;var lines=(input.getAttribute("data-button-lines")||"").split("\n");button.textContent="";lines.forEach(function(t){var s=document.createElement("span");s.className="sk-label-line";s.textContent=t;button.appendChild(s);});button.setAttribute("aria-label",input.getAttribute("data-button-spoken")||"");var c=button.form&&button.form.querySelector(".sk-button-caption");if(c)c.textContent=input.getAttribute("data-button-caption")||"";}
document.addEventListener("change",function(e){var t=e.target;if(t&&t.name==="product"&&t.type==="radio"){var f=t.form;label(f&&f.querySelector(".sk-subscribe"),t);}});
document.addEventListener("submit",function(e){
 var form=e.target;if(!(form instanceof HTMLFormElement)||form.method.toLowerCase()!=="post"||!window.fetch||form.dataset.skNative)return;
 e.preventDefault();
 var submitter=e.submitter||form.querySelector("button[type=submit]");var data=new FormData(form);if(submitter&&submitter.name)data.set(submitter.name,submitter.value);
 var product=data.get("product")||(String(data.get("action")||"").indexOf("purchase:")===0?String(data.get("action")).slice(9).split("#")[0]:null);
 var main=document.getElementById("sk-main");main.setAttribute("aria-busy","true");form.classList.add("sk-busy");
 Array.prototype.forEach.call(form.querySelectorAll("button"),function(b){b.disabled=true;});
 if(product)document.dispatchEvent(new CustomEvent("openstore:purchase-start",{detail:{productID:product}}));
 fetch(form.getAttribute("action")||location.href,{method:"POST",body:new URLSearchParams(data),headers:{"Accept":"text/html"},credentials:"same-origin"}).then(function(r){if(!r.ok&&r.status!==303)throw new Error(String(r.status));var status=r.headers.get("X-OpenStore-Result");return r.text().then(function(h){return{h:h,status:status,url:r.url};});}).then(function(res){
  var doc=new DOMParser().parseFromString(res.h,"text/html");var next=doc.getElementById("sk-main");
  if(!next)throw new Error("no page");
  {main.replaceWith(next);var header=document.querySelector(".sk-page-header"),nh=doc.querySelector(".sk-page-header");if(header&&nh)header.replaceWith(nh);}
  if(res.url&&res.url!==location.href)history.replaceState(null,"",res.url);
  var notice=document.querySelector(".sk-notice");if(notice){notice.setAttribute("tabindex","-1");notice.focus();}
  if(product)document.dispatchEvent(new CustomEvent("openstore:purchase-completion",{detail:{productID:product,result:res.status}}));
 }).catch(function(){form.classList.remove("sk-busy");main.removeAttribute("aria-busy");Array.prototype.forEach.call(form.querySelectorAll("button"),function(b){b.disabled=false;});form.dataset.skNative="1";HTMLFormElement.prototype.requestSubmit?form.requestSubmit(submitter&&submitter.form===form?submitter:undefined):form.submit();});
});
})();
"""#
}
