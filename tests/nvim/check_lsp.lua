-- Driven by tests/lsp_nvim.rs: open a .miau fixture in headless Neovim with
-- `miauc lsp` attached, wait for its diagnostics, ask for a hover, and write
-- what the editor received to $MIAU_OUT as JSON.
local miauc = assert(os.getenv('MIAU_BIN'), 'MIAU_BIN not set')
local fixture = assert(os.getenv('MIAU_FIXTURE'), 'MIAU_FIXTURE not set')
local out_path = assert(os.getenv('MIAU_OUT'), 'MIAU_OUT not set')
local hover_line = tonumber(os.getenv('MIAU_HOVER_LINE'))
local hover_char = tonumber(os.getenv('MIAU_HOVER_CHAR'))

local result = { diagnostics = {}, hover = vim.NIL, errors = {} }

local function finish()
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.json.encode(result))
  f:close()
  for _, c in ipairs(vim.lsp.get_clients()) do
    c:stop(true)
  end
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(fixture))
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].filetype = 'miau'
  local client_id = vim.lsp.start({
    name = 'miau',
    cmd = { miauc, 'lsp' },
    root_dir = vim.fs.dirname(fixture),
  }, { bufnr = buf })
  assert(client_id, 'the language server did not start')

  local got = vim.wait(20000, function()
    return #vim.diagnostic.get(buf) > 0
  end, 50)
  if not got then
    table.insert(result.errors, 'no diagnostics within 20 s')
  end
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(result.diagnostics, {
      code = d.code,
      lnum = d.lnum,
      col = d.col,
      end_col = d.end_col,
      severity = d.severity,
      message = d.message,
    })
  end

  local client = vim.lsp.get_client_by_id(client_id)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = hover_line, character = hover_char },
  }
  local resp, herr = client:request_sync('textDocument/hover', params, 10000, buf)
  if resp and resp.result then
    result.hover = resp.result.contents.value
  else
    table.insert(result.errors, 'hover failed: ' .. vim.inspect(herr or resp))
  end
end)
if not ok then
  table.insert(result.errors, tostring(err))
end
finish()
