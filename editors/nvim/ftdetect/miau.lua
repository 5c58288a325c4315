vim.filetype.add({ extension = { miau = 'miau' } })
