/// The dashboard's small progressive script. Pages need none of it: forms post natively, the
/// events page has a refresh link, the progress page refreshes itself. With it: "Copy" buttons
/// beside each JWS, and the events page follows the store live over Server-Sent Events.
enum ManageScript {
    static let js = #"""
(function(){
"use strict";
Array.prototype.forEach.call(document.querySelectorAll("textarea[data-copy]"),function(area){
 if(!navigator.clipboard)return;
 var b=document.createElement("button");b.type="button";b.className="sk-button mg-button sk-button-cancel";b.textContent="Copy";
 b.setAttribute("aria-label","Copy "+(area.getAttribute("aria-label")||"text"));
 b.addEventListener("click",function(){navigator.clipboard.writeText(area.value).then(function(){b.textContent="Copied";});});
 area.insertAdjacentElement("afterend",b);
});
var feed=document.getElementById("mg-events");
if(feed&&window.EventSource&&feed.getAttribute("data-stream")){
 var body=feed.querySelector("tbody"),status=document.getElementById("mg-live");
 var source=new EventSource(feed.getAttribute("data-stream")+"&after="+encodeURIComponent(feed.getAttribute("data-after")||"0"));
 source.addEventListener("open",function(){if(status)status.textContent="Live: new events appear as they happen.";});
 source.addEventListener("event",function(m){var e;try{e=JSON.parse(m.data);}catch(x){return;}
  var tr=document.createElement("tr");[e.seq,e.at,e.type+(e.subtype?" / "+e.subtype:""),e.bundleId,e.customer,e.transactionId||""].forEach(function(v){var td=document.createElement("td");td.textContent=String(v);tr.appendChild(td);});
  body.insertBefore(tr,body.firstChild);});
 source.addEventListener("error",function(){if(status)status.textContent="Live updates paused; reload the page to refresh.";});
}
})();
"""#
}
