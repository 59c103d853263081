-- wrk script: replay pre-signed POST /api/user/init requests, each used once.
-- Threads take interleaved lines so no nonce is sent twice; requests are formatted
-- up front so the load generator spends its CPU on sending, not on Lua.
local counter = 0

function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end

function init(args)
  requests = {}
  local n = 0
  local nthreads = tonumber(args[2])
  for line in io.lines(args[1]) do
    if n % nthreads == tid then
      local base, ts, nonce, sign, address = line:match("([^\t]+)\t([^\t]+)\t([^\t]+)\t([^\t]+)\t([^\t]+)")
      requests[#requests + 1] = wrk.format("POST", "/api/user/init",
        { ["base"] = base, ["timestamp"] = ts, ["nonce"] = nonce, ["sign"] = sign,
          ["X-Forwarded-For"] = address,
          ["Content-Type"] = "application/json", ["Accept-Encoding"] = "identity" }, "{}")
    end
    n = n + 1
  end
  index = 0
end

function request()
  index = index + 1
  if index > #requests then
    index = 1
  end
  return requests[index]
end
