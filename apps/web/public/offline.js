// The offline page in the language the trader chose in the app (kept in localStorage under "lang").
(function () {
  var TEXTS = {
    en: [
      'You are offline',
      'Check your internet connection. Prices and your positions appear again once you are back online.',
      'Try again',
    ],
    jp: ['オフラインです', 'インターネット接続を確認してください。接続が戻ると価格とポジションが再び表示されます。', '再試行'],
    kr: ['오프라인 상태입니다', '인터넷 연결을 확인하세요. 다시 연결되면 시세와 포지션이 다시 표시됩니다.', '다시 시도'],
    hk: ['您已離線', '請檢查網絡連線。恢復連線後，價格和您的持倉會再次顯示。', '重試'],
    th: ['คุณออฟไลน์อยู่', 'โปรดตรวจสอบการเชื่อมต่ออินเทอร์เน็ต ราคาและสถานะของคุณจะแสดงอีกครั้งเมื่อกลับมาออนไลน์', 'ลองอีกครั้ง'],
    vn: [
      'Bạn đang ngoại tuyến',
      'Hãy kiểm tra kết nối internet. Giá và các vị thế của bạn sẽ hiện lại khi bạn trực tuyến trở lại.',
      'Thử lại',
    ],
    fr: [
      'Vous êtes hors ligne',
      'Vérifiez votre connexion Internet. Les cours et vos positions réapparaissent dès que vous êtes de nouveau en ligne.',
      'Réessayer',
    ],
    de: [
      'Sie sind offline',
      'Prüfen Sie Ihre Internetverbindung. Kurse und Ihre Positionen erscheinen wieder, sobald Sie online sind.',
      'Erneut versuchen',
    ],
    ru: [
      'Нет подключения к сети',
      'Проверьте подключение к интернету. Цены и ваши позиции снова появятся, когда связь восстановится.',
      'Повторить',
    ],
    spa: [
      'No tienes conexión',
      'Comprueba tu conexión a internet. Los precios y tus posiciones volverán a aparecer cuando vuelvas a estar en línea.',
      'Reintentar',
    ],
    pt: [
      'Está offline',
      'Verifique a sua ligação à internet. Os preços e as suas posições voltam a aparecer quando estiver novamente online.',
      'Tentar de novo',
    ],
    it: ['Sei offline', 'Controlla la connessione a internet. I prezzi e le tue posizioni ricompaiono quando torni online.', 'Riprova'],
    ar: ['أنت غير متصل بالإنترنت', 'تحقق من اتصالك بالإنترنت. ستظهر الأسعار ومراكزك مرة أخرى عند عودة الاتصال.', 'إعادة المحاولة'],
    tr: [
      'Çevrimdışısınız',
      'İnternet bağlantınızı kontrol edin. Tekrar çevrimiçi olduğunuzda fiyatlar ve pozisyonlarınız yeniden görünür.',
      'Tekrar dene',
    ],
    id: [
      'Anda sedang offline',
      'Periksa koneksi internet Anda. Harga dan posisi Anda akan muncul lagi setelah Anda kembali online.',
      'Coba lagi',
    ],
    my: [
      'Anda di luar talian',
      'Semak sambungan internet anda. Harga dan posisi anda akan dipaparkan semula apabila anda kembali dalam talian.',
      'Cuba lagi',
    ],
    hi: ['आप ऑफ़लाइन हैं', 'अपना इंटरनेट कनेक्शन जाँचें। दोबारा ऑनलाइन होने पर कीमतें और आपकी पोज़िशन फिर दिखेंगी।', 'फिर से कोशिश करें'],
    cs: ['Jste offline', 'Zkontrolujte připojení k internetu. Ceny a vaše pozice se znovu zobrazí, až budete opět online.', 'Zkusit znovu'],
  };
  var LOCALES = {
    en: 'en',
    jp: 'ja',
    kr: 'ko',
    hk: 'zh-Hant-HK',
    th: 'th',
    vn: 'vi',
    fr: 'fr',
    de: 'de',
    ru: 'ru',
    spa: 'es',
    pt: 'pt',
    it: 'it',
    ar: 'ar',
    tr: 'tr',
    id: 'id',
    my: 'ms',
    hi: 'hi',
    cs: 'cs',
  };
  var lang = 'hk';
  try {
    var stored = (localStorage.getItem('lang') || '').toLowerCase();
    if (stored === 'tw') stored = 'hk';
    if (TEXTS[stored]) lang = stored;
  } catch (e) {
    // No storage: the default language.
  }
  var texts = TEXTS[lang];
  document.documentElement.lang = LOCALES[lang];
  document.documentElement.dir = lang === 'ar' ? 'rtl' : 'ltr';
  document.title = texts[0];
  var slots = { title: 0, body: 1, retry: 2 };
  document.querySelectorAll('[data-text]').forEach(function (el) {
    el.textContent = texts[slots[el.getAttribute('data-text')]];
  });
  document.querySelector('button').addEventListener('click', function () {
    location.reload();
  });
  window.addEventListener('online', function () {
    location.reload();
  });
})();
