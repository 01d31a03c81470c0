// One number changed every 5 s, as a live price is: no layout beyond its own line.
let price = 1054048.39;
setInterval(() => {
  price += Math.random() * 200 - 100;
  document.getElementById("price").textContent = price.toFixed(2);
}, 5000);
