-- POST /api/report with 20 events (issue 21 budget: >= 1000 req/s of 20 events, p99 < 20 ms at 64 connections).
-- Each connection is its own device; events are a realistic mix (page views, core functions, searches).
local counter = 0
function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
end

function init(args)
  local events = {}
  for i = 1, 20 do
    local e
    if i % 4 == 0 then
      e = string.format('{"event":"coreBehavior","behavior_id":"NewsDetail_Show","sub_behavior_id":"%d","is_base":1}', i)
    elseif i % 7 == 0 then
      e = '{"event":"search","keyword":"flood warning"}'
    else
      e = string.format('{"event":"pageView","location_origin":"http://localhost","page_path":"/article/%d","page_title":"Story %d","news_id":"%d"}', i, i, i)
    end
    events[#events + 1] = e
  end
  body = string.format(
    '{"app_id":20310,"timestamp":1760000000000,"nonce_str":"0123456789abcdef","source":4,"data":[%s],' ..
    '"property":{"os":5,"device_id":"bench-%d","app_lang":"en","country":"US","channel":"","network_type":"wifi"}}',
    table.concat(events, ","), id)
  wrk.method = "POST"
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"
end

function response(status, headers, body)
  if status ~= 200 then
    io.stderr:write("status " .. status .. ": " .. body .. "\n")
  end
end

-- REPORT_DELAY_MS=64 paces each of the 64 connections to about one call per 64 ms:
-- about 1,000 calls/s (20,000 events/s), the budgeted rate, to read the p99 there.
local pace = tonumber(os.getenv("REPORT_DELAY_MS") or "")
if pace then
  function delay()
    return pace
  end
end
