-- wrk script: replay pre-signed POST requests (base, timestamp, nonce, sign, token and
-- optionally a JSON body per line; `{}` without one), each used once, to the path given as
-- the first argument. Threads take interleaved lines so no nonce is sent twice.
local counter = 0

function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end

function init(args)
  requests = {}
  local n = 0
  local path, file, nthreads = args[1], args[2], tonumber(args[3])
  for line in io.lines(file) do
    if n % nthreads == tid then
      local base, ts, nonce, sign, token, body = line:match("([^\t]+)\t([^\t]+)\t([^\t]+)\t([^\t]+)\t([^\t]+)\t?([^\t]*)")
      if body == nil or body == "" then body = "{}" end
      requests[#requests + 1] = wrk.format("POST", "/api" .. path,
        { ["base"] = base, ["timestamp"] = ts, ["nonce"] = nonce, ["sign"] = sign, ["token"] = token,
          ["Content-Type"] = "application/json", ["Accept-Encoding"] = "identity" }, body)
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
