const status = 503;
throw { code: status, reason: "unavailable" };
