-- Every request names a new URL (an extra, ignored `nocache` parameter), so the read
-- cache (D140) never answers: this measures making each answer from the store.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local n = 0
function request()
  n = n + 1
  return wrk.format(nil, wrk.path .. "&nocache=" .. tid .. "-" .. n)
end
