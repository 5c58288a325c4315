-- Driven by tests/lsp_nvim.rs: load the plugin (editors/nvim) in headless
-- Neovim, build the tree-sitter parser with :MiauBuildParser, open a pack and
-- record the highlight captures and folds the editor gives its board, to
-- $MIAU_OUT as JSON.
local miauc = assert(os.getenv('MIAU_BIN'), 'MIAU_BIN not set')
local plugin = assert(os.getenv('MIAU_PLUGIN'), 'MIAU_PLUGIN not set')
local parser_dir = assert(os.getenv('MIAU_PARSER_DIR'), 'MIAU_PARSER_DIR not set')
local fixture = assert(os.getenv('MIAU_FIXTURE'), 'MIAU_FIXTURE not set')
local out_path = assert(os.getenv('MIAU_OUT'), 'MIAU_OUT not set')
local probes = vim.json.decode((assert(os.getenv('MIAU_PROBES'), 'MIAU_PROBES not set')))

local result = { errors = {}, captures = {}, commands = {} }

local ok, err = pcall(function()
  vim.opt.runtimepath:prepend(plugin)
  local miau = require('miau')
  miau.setup({ cmd = { miauc, 'lsp' }, parser_dir = parser_dir, codelens = false })
  vim.cmd('MiauBuildParser')
  result.parser = vim.uv.fs_stat(parser_dir .. '/parser/miau.so') ~= nil
  result.build_cmd = (miau.build_parser_cmd())

  vim.cmd('edit ' .. vim.fn.fnameescape(fixture))
  local buf = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[buf].filetype
  result.highlighting = vim.treesitter.highlighter.active[buf] ~= nil
  result.foldmethod = vim.wo.foldmethod
  for _, p in ipairs(probes) do
    local names = {}
    for _, c in ipairs(vim.treesitter.get_captures_at_pos(buf, p.row, p.col)) do
      table.insert(names, c.capture)
    end
    table.insert(result.captures, { text = p.text, names = names })
  end
  -- The board folds: its rows are inside a fold of the level's.
  result.board_foldlevel = vim.fn.foldlevel(probes[1].row + 1)
  local cmds = vim.api.nvim_buf_get_commands(buf, {})
  for _, name in ipairs({ 'MiauCheck', 'MiauCheckLevel', 'MiauCancelCheck', 'MiauPlay' }) do
    result.commands[name] = cmds[name] ~= nil
  end
  vim.api.nvim_win_set_cursor(0, { probes[1].row + 1, 0 })
  result.level_at_cursor = miau.level_at(buf, probes[1].row + 1)
  result.levels = miau.levels(buf)
  result.tree_has_error = vim.treesitter.get_parser(buf, 'miau'):parse()[1]:root():has_error()
end)
if not ok then
  table.insert(result.errors, tostring(err))
end
local f = assert(io.open(out_path, 'w'))
f:write(vim.json.encode(result))
f:close()
for _, c in ipairs(vim.lsp.get_clients()) do
  c:stop(true)
end
vim.cmd('qa!')
