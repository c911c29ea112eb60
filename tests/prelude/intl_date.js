/* Intl.DateTimeFormat and Date.prototype.toLocale{,Date,Time}String with
 * en-US data in UTC (the sandbox's clock): the default formats, dateStyle
 * and timeStyle, every component option and their combinations, hour
 * cycles, time zone names, option errors. Recorded with TZ=UTC. */
var d = new Date(Date.UTC(2024, 2, 5, 14, 7, 9, 45));
var midnight = new Date(Date.UTC(2023, 11, 31, 0, 5, 0));
var noon = new Date(Date.UTC(1999, 0, 9, 12, 0, 59, 999));
var dates = [d, midnight, noon];
function all(method, o) {
    var out = [];
    for (var i = 0; i < dates.length; i++) out.push(dates[i][method]('en-US', o));
    return out;
}

t('defaults', function () {
    return [all('toLocaleString'), all('toLocaleDateString'), all('toLocaleTimeString'), d.toLocaleString(),
            d.toLocaleDateString(undefined), d.toLocaleTimeString([]), new Date(NaN).toLocaleString(),
            new Date(NaN).toLocaleDateString(), new Date(Date.UTC(5, 0, 1)).toLocaleDateString('en-US'),
            new Date(Date.UTC(12345, 0, 1)).toLocaleDateString('en-US')];
});
t('dateStyle', function () {
    var out = {}, styles = ['full', 'long', 'medium', 'short'];
    for (var i = 0; i < styles.length; i++) {
        out[styles[i]] = all('toLocaleDateString', { dateStyle: styles[i] });
        out['time' + styles[i]] = all('toLocaleTimeString', { timeStyle: styles[i] });
        for (var j = 0; j < styles.length; j++)
            out[styles[i] + '+' + styles[j]] = d.toLocaleString('en-US', { dateStyle: styles[i], timeStyle: styles[j] });
    }
    return out;
});
t('dateComponents', function () {
    var combos = [
        { year: 'numeric', month: 'long', day: 'numeric' }, { year: 'numeric', month: 'short', day: 'numeric' },
        { year: 'numeric', month: 'narrow', day: 'numeric' },
        { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' },
        { weekday: 'long', month: 'long', day: 'numeric' }, { weekday: 'short', month: 'numeric', day: 'numeric' },
        { weekday: 'long', year: 'numeric', month: 'numeric', day: 'numeric' }, { weekday: 'long' }, { weekday: 'short' }, { weekday: 'narrow' },
        { month: 'long' }, { month: 'short' }, { month: 'numeric' }, { month: '2-digit' }, { year: 'numeric' }, { year: '2-digit' },
        { day: 'numeric' }, { day: '2-digit' }, { month: 'long', day: 'numeric' }, { month: 'short', day: 'numeric' },
        { month: 'long', year: 'numeric' }, { month: 'short', year: 'numeric' }, { month: 'numeric', year: 'numeric' },
        { month: '2-digit', year: 'numeric' }, { month: 'numeric', day: 'numeric' }, { month: '2-digit', day: '2-digit' },
        { year: 'numeric', month: '2-digit', day: '2-digit' }, { year: '2-digit', month: '2-digit', day: '2-digit' },
        { year: '2-digit', month: 'numeric', day: 'numeric' }, { year: 'numeric', month: 'long', day: '2-digit' },
        { year: 'numeric', month: 'short' }
    ];
    var out = [];
    for (var i = 0; i < combos.length; i++) out.push(all('toLocaleDateString', combos[i]));
    return out;
});
t('timeComponents', function () {
    var combos = [
        { hour: 'numeric' }, { hour: '2-digit' }, { hour: 'numeric', minute: '2-digit' }, { hour: '2-digit', minute: '2-digit' },
        { hour: 'numeric', minute: 'numeric', second: 'numeric' }, { minute: '2-digit' }, { second: '2-digit' }, { minute: 'numeric', second: 'numeric' },
        { hour: 'numeric', minute: 'numeric', hourCycle: 'h23' }, { hour: 'numeric', minute: 'numeric', hourCycle: 'h11' },
        { hour: 'numeric', minute: 'numeric', hourCycle: 'h24' }, { hour: 'numeric', hourCycle: 'h12' },
        { hour: 'numeric', minute: 'numeric', second: 'numeric', fractionalSecondDigits: 3 },
        { minute: 'numeric', second: 'numeric', fractionalSecondDigits: 2 }, { second: 'numeric', fractionalSecondDigits: 1 },
        { hour: 'numeric', timeZoneName: 'short' }, { hour: 'numeric', minute: 'numeric', timeZoneName: 'long' },
        { timeZoneName: 'short' }, { hour12: true }, { hour: 'numeric', hour12: true, hourCycle: 'h23' }
    ];
    var out = [];
    for (var i = 0; i < combos.length; i++) out.push(all('toLocaleTimeString', combos[i]));
    /* hour12: false at midnight: Node 20 shows hour 24 (ICU's h24 there, fixed later); the sandbox shows 00 */
    var h23 = [{ hour: 'numeric', hour12: false }, { hour: '2-digit', minute: '2-digit', hour12: false }, { hour12: false }];
    for (i = 0; i < h23.length; i++) out.push([d.toLocaleTimeString('en-US', h23[i]), noon.toLocaleTimeString('en-US', h23[i])]);
    return out;
});
t('mixed', function () {
    var combos = [
        { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' },
        { year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', timeZoneName: 'short' },
        { weekday: 'long', hour: 'numeric' }, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' },
        { month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' },
        { month: 'short', day: 'numeric', hour: 'numeric' }, { timeZone: 'UTC' }, { timeZone: 'utc', dateStyle: 'medium' },
        { timeZone: 'Etc/UTC', timeStyle: 'long' }, { timeZone: 'GMT', hour: 'numeric' }
    ];
    var out = [];
    for (var i = 0; i < combos.length; i++) out.push(all('toLocaleString', combos[i]));
    out.push(d.toLocaleDateString('en-US', { hour: 'numeric' }), d.toLocaleTimeString('en-US', { month: 'long' }),
             d.toLocaleString('en-US', { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false }));
    return out;
});
t('dateTimeFormatObject', function () {
    var f = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }), fmt = f.format, r = f.resolvedOptions();
    var g = Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', hour: 'numeric', hour12: false }).resolvedOptions();
    return [f.format(d), fmt(d.getTime()), [d, midnight].map(f.format), new Intl.DateTimeFormat().format(d), Intl.DateTimeFormat('en').format(noon),
            r.locale, r.calendar, r.numberingSystem, r.timeZone, r.dateStyle, r.timeStyle, g.year, g.month, g.hour, g.hour12,
            Object.prototype.toString.call(f), Intl.DateTimeFormat.supportedLocalesOf(['en-US', 'en']), typeof f.format(),
            Intl.DateTimeFormat().resolvedOptions().timeZone];
});
t('errors', function () {
    function err(fn) { try { fn(); return 'no error'; } catch (e) { return e.name; } }
    return [err(function () { return d.toLocaleString('en-US', { month: 'longest' }); }),
            err(function () { return d.toLocaleString('en-US', { dateStyle: 'full', year: 'numeric' }); }),
            err(function () { return d.toLocaleString('en-US', { fractionalSecondDigits: 4 }); }),
            err(function () { return d.toLocaleString('en-US', { timeZone: 'Mars/Olympus' }); }),
            err(function () { return d.toLocaleString('xx_YY'); }),
            err(function () { return new Intl.DateTimeFormat().format(NaN); }),
            err(function () { return Date.prototype.toLocaleString.call({}); }),
            err(function () { return d.toLocaleTimeString('en-US', { dateStyle: 'short' }); })];
});
t('dateStrings', function () {
    var out = [];
    for (var i = 0; i < dates.length; i++)
        out.push([dates[i].toString(), dates[i].toDateString(), dates[i].toTimeString(), dates[i].toUTCString(), String(dates[i]), '' + dates[i],
                  dates[i].toGMTString()]);
    var bad = new Date(NaN);
    out.push([bad.toString(), bad.toDateString(), bad.toTimeString(), bad.toUTCString(), String(bad)]);
    out.push([new Date(Date.UTC(-50, 0, 1)).toString(), new Date(Date.UTC(-50, 0, 1)).toUTCString(), new Date(Date.UTC(12345, 5, 6)).toString(),
              new Date(Date.UTC(5, 0, 1)).toDateString()]);
    out.push([typeof Date(), Date().length > 20]);
    return out;
});
t('dateParse', function () {
    var strs = ['Tue Mar 05 2024 14:07:09 GMT+0000 (Coordinated Universal Time)', 'Tue, 05 Mar 2024 14:07:09 GMT', 'March 5, 2024',
                'Mar 5, 2024 10:00', 'Mar 5 2024 10:00:30 PM', '2024/03/05', '2024/03/05 10:00', '3/5/2024', '3/5/2024, 2:07:09 PM',
                '03/05/24', '5 March 2024', 'Tuesday, March 5, 2024', 'March 2024', 'Mar 5, 2024 10:00 GMT+0530', '05 Mar 2024 14:07 +0100',
                'Mar 5, 2024 10:00 EST', 'Mar 5, 2024 10:00 PDT', '2024-03-05', '2024-03-05T10:00:00+05:30', '12/31/1999 23:59:59',
                'Dec 25, 1995', 'December 17, 1995 03:24:00', '1995-12-17T03:24:00Z', 'Wed, 09 Aug 1995 00:00:00 GMT',
                '12:00 AM Mar 5 2024', 'Mar 5 2024 12:00 AM', 'Mar 5 2024 12:30 PM', 'not a date', '', 'March 32, 2024', '13/01/2024',
                'Mar 5, 2024 25:00', '2024', 'Mar 5, 2024 (a comment)', 'Thu, 01 Jan 1970 00:00:00 GMT-0500'];
    var out = [];
    for (var i = 0; i < strs.length; i++) {
        var v = Date.parse(strs[i]), n = new Date(strs[i]).getTime();
        out.push([strs[i], v !== v ? 'NaN' : v, v === n || (v !== v && n !== n)]);
    }
    out.push(Date.parse(d.toString()) === Math.floor(d.getTime() / 1000) * 1000, Date.parse(d.toUTCString()) === Math.floor(d.getTime() / 1000) * 1000);
    return out;
});
return __out;
