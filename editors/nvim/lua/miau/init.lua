-- Neovim support for Miau packs (Neovim 0.11+): filetype, comment string,
-- tree-sitter highlighting and folds, and the miauc language server.
-- Usage:
--   require('miau').setup({ cmd = { 'miauc', 'lsp' } })
-- Commands in .miau buffers: :MiauCheck (the whole pack), :MiauCheckLevel
-- [id] (default: the level under the cursor), :MiauCancelCheck, :MiauPlay
-- [id] (`miauc play` in a terminal); anywhere: :MiauBuildParser.
local M = {}

-- The plugin's directory (editors/nvim) and the grammar next to it.
local plugin_dir = vim.fs.dirname(vim.fs.dirname(vim.fs.dirname(debug.getinfo(1, 'S').source:sub(2))))

M.defaults = {
  cmd = { 'miauc', 'lsp' },
  root_markers = { '.git', 'packs' },
  -- Show the "Check" / "Replay solution" lenses and refresh them on edits.
  codelens = true,
  -- Highlight and fold with the tree-sitter parser when it is built.
  treesitter = true,
  -- The grammar's committed sources (src/parser.c) that :MiauBuildParser compiles.
  grammar_dir = vim.fs.joinpath(plugin_dir, '..', '..', 'grammar', 'tree-sitter-miau'),
  -- Where :MiauBuildParser writes parser/miau.so; it must be on 'runtimepath'
  -- (the plugin's own directory is).
  parser_dir = plugin_dir,
  -- The C compiler for :MiauBuildParser.
  cc = 'cc',
}

M.options = vim.deepcopy(M.defaults)

local function client_for(buf)
  return vim.lsp.get_clients({ bufnr = buf, name = 'miau' })[1]
end

local function exec(buf, command, args)
  local client = client_for(buf)
  if not client then
    vim.notify('miau: the language server is not running for this buffer', vim.log.levels.WARN)
    return
  end
  client:request('workspace/executeCommand', { command = command, arguments = args }, function(err, res)
    if err then
      vim.notify('miau: ' .. err.message, vim.log.levels.ERROR)
    elseif res and res.levels then
      local lines = {}
      for _, l in ipairs(res.levels) do
        table.insert(lines, (l.level or '?') .. ': ' .. (l.summary or l.error or ''))
      end
      vim.notify(table.concat(lines, '\n'))
    end
  end, buf)
end

--- Level ids of a buffer, in order.
function M.levels(buf)
  local ids = {}
  for _, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local id = line:match('^%s*level%s+([a-z][a-z0-9._-]*)%s*{')
    if id then
      table.insert(ids, id)
    end
  end
  return ids
end

--- The id of the level whose block holds `row` (1-based): the last header at or above it.
function M.level_at(buf, row)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, row, false)
  for i = #lines, 1, -1 do
    local id = lines[i]:match('^%s*level%s+([a-z][a-z0-9._-]*)%s*{')
    if id then
      return id
    end
  end
  return nil
end

local function level_arg(buf, arg)
  if arg ~= nil and arg ~= '' then
    return arg
  end
  local id = M.level_at(buf, vim.api.nvim_win_get_cursor(0)[1])
  if not id then
    vim.notify('miau: the cursor is not in a level; name one', vim.log.levels.WARN)
  end
  return id
end

--- The command :MiauBuildParser runs, as a list (also what docs/editors.md gives).
function M.build_parser_cmd(opts)
  opts = opts or M.options
  local src = vim.fs.normalize(vim.fs.joinpath(opts.grammar_dir, 'src'))
  local out = vim.fs.joinpath(opts.parser_dir, 'parser', 'miau.so')
  return { opts.cc, '-o', out, '-shared', '-fPIC', '-O2', '-I', src, vim.fs.joinpath(src, 'parser.c') }, out
end

--- Compiles the committed parser into `parser_dir`/parser/miau.so and loads it.
--- Returns true on success.
function M.build_parser()
  local cmd, out = M.build_parser_cmd()
  vim.fn.mkdir(vim.fs.dirname(out), 'p')
  local r = vim.system(cmd, { text = true }):wait()
  if r.code ~= 0 then
    vim.notify('miau: building the parser failed:\n' .. table.concat(cmd, ' ') .. '\n' .. (r.stderr or ''), vim.log.levels.ERROR)
    return false
  end
  local ok, err = pcall(vim.treesitter.language.add, 'miau', { path = out })
  if not ok then
    vim.notify('miau: ' .. tostring(err), vim.log.levels.ERROR)
    return false
  end
  vim.notify('miau: built ' .. out)
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].filetype == 'miau' then
      M.start_treesitter(buf)
    end
  end
  return true
end

--- Starts tree-sitter highlighting and folding in `buf` when the parser is there.
function M.start_treesitter(buf)
  if not M.options.treesitter then
    return false
  end
  local found = vim.api.nvim_get_runtime_file('parser/miau.so', false)[1]
  if not found then
    return false
  end
  local ok = pcall(vim.treesitter.language.add, 'miau', { path = found })
  if not ok or not pcall(vim.treesitter.start, buf, 'miau') then
    return false
  end
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    vim.wo[win][0].foldmethod = 'expr'
    vim.wo[win][0].foldexpr = 'v:lua.vim.treesitter.foldexpr()'
    vim.wo[win][0].foldlevel = 99
  end
  return true
end

--- Opens `miauc play` for a level of `buf` in a terminal split.
function M.play(buf, level)
  local file = vim.api.nvim_buf_get_name(buf)
  if vim.bo[buf].modified then
    vim.cmd('write')
  end
  local cmd = { M.options.cmd[1], 'play', file }
  if level then
    vim.list_extend(cmd, { '--level', level })
  end
  vim.cmd('botright new')
  vim.fn.jobstart(cmd, { term = true })
  vim.cmd('startinsert')
  return cmd
end

local function on_miau_buffer(buf)
  local opts = M.options
  vim.bo[buf].commentstring = '// %s'
  M.start_treesitter(buf)
  local root = vim.fs.root(buf, opts.root_markers) or vim.fn.getcwd()
  vim.lsp.start({
    name = 'miau',
    cmd = opts.cmd,
    root_dir = root,
  }, { bufnr = buf })
  local complete = function()
    return M.levels(buf)
  end
  vim.api.nvim_buf_create_user_command(buf, 'MiauCheck', function()
    exec(buf, 'miau.checkPack', { vim.uri_from_bufnr(buf) })
  end, { desc = 'Check every level of this pack' })
  vim.api.nvim_buf_create_user_command(buf, 'MiauCheckLevel', function(c)
    local id = level_arg(buf, c.args)
    if id then
      exec(buf, 'miau.checkLevel', { vim.uri_from_bufnr(buf), id })
    end
  end, { nargs = '?', complete = complete, desc = 'Check one level (default: the one under the cursor)' })
  vim.api.nvim_buf_create_user_command(buf, 'MiauCancelCheck', function()
    exec(buf, 'miau.cancelCheck', {})
  end, { desc = 'Cancel running checks' })
  vim.api.nvim_buf_create_user_command(buf, 'MiauPlay', function(c)
    M.play(buf, level_arg(buf, c.args))
  end, { nargs = '?', complete = complete, desc = 'Play a level with `miauc play` in a terminal' })
  if opts.codelens then
    vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'BufWritePost' }, {
      buffer = buf,
      callback = function()
        vim.lsp.codelens.refresh({ bufnr = buf })
      end,
    })
  end
end

--- Register the filetype and start `miauc lsp` (and tree-sitter) for every .miau buffer.
function M.setup(opts)
  M.options = vim.tbl_deep_extend('force', M.defaults, opts or {})
  -- Neovim finds parser/miau.so and queries/miau/*.scm on 'runtimepath'.
  for _, dir in ipairs({ plugin_dir, M.options.parser_dir }) do
    if not vim.tbl_contains(vim.opt.runtimepath:get(), dir) then
      vim.opt.runtimepath:append(dir)
    end
  end
  vim.filetype.add({ extension = { miau = 'miau' } })
  vim.api.nvim_create_user_command('MiauBuildParser', function()
    M.build_parser()
  end, { desc = 'Compile the tree-sitter parser of .miau from the committed sources' })
  vim.api.nvim_create_autocmd('FileType', {
    pattern = 'miau',
    callback = function(args)
      on_miau_buffer(args.buf)
    end,
  })
end

return M
